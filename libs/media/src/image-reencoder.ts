import { DomainError } from '@spark/errors';
import type { Sharp, SharpOptions } from 'sharp';
import { ConcurrencyLimit } from './concurrency-limit';

export type RasterFormat = 'jpeg' | 'png' | 'webp' | 'gif';

/** Decoding more pixels than this (a 50 MP photo holds ~150 MB decoded) would endanger the process's memory. */
export const MAX_IMAGE_PIXELS = 50_000_000;
// Each re-encode holds a decoded picture (a 12 MP photo took the process ~85–100 MB more at its peak), and libvips
// already spreads one over the cores: one at a time per process keeps memory bounded at little cost in throughput.
// Owners take turns in it, as one at the pixel limit holds it for seconds.
const reencodes = new ConcurrencyLimit(1);

// sharp and libvips weigh on a process's memory once loaded: a gateway that re-encodes only the rare image an admin
// uploads loads them then, not at start.
let loadedSharp: Promise<(input: string | Buffer, options: SharpOptions) => Sharp> | undefined;
const loadSharp = () =>
  (loadedSharp ??= import('sharp').then(({ default: sharp }) => {
    // libvips' operation cache would keep recent pictures decoded; every upload is a different picture.
    sharp.cache(false);
    return sharp;
  }));

const encoders: Record<RasterFormat, (image: Sharp) => Sharp> = {
  jpeg: (image) => image.jpeg({ quality: 90 }),
  png: (image) => image.png(),
  webp: (image) => image.webp({ quality: 90 }),
  gif: (image) => image.gif(),
};

const unreadable = () => new DomainError('UNSUPPORTED_MEDIA_TYPE', 'This photo could not be read. Please choose another one.');

/**
 * The picture decoded and encoded again in its own format, with none of the original's metadata
 * (Exif with its GPS block, XMP, IPTC, text chunks, comments, maker notes), only its colour profile.
 * The Exif orientation is applied to the pixels first, so the photo still displays upright.
 * `input` is a file path or the bytes themselves. Photos of one `owner` (a client) take turns with other owners'
 * for the process's one re-encode, so a client's backlog delays another's photo by one of its photos at most.
 */
export function reencodeImage(input: string | Buffer, format: RasterFormat, owner?: string): Promise<Buffer> {
  return reencodes.run(() => reencode(input, format), 1, owner);
}

async function reencode(input: string | Buffer, format: RasterFormat): Promise<Buffer> {
  // As lenient as a browser, which shows a photo despite a bad checksum or a cut-off end: what is
  // stored is freshly encoded pixels either way.
  const options = { animated: true, autoOrient: true, failOn: 'none', limitInputPixels: MAX_IMAGE_PIXELS } as const;
  const image = (await loadSharp())(input, options).keepIccProfile();
  try {
    return await encoders[format](image).toBuffer();
  } catch (error) {
    if (error instanceof Error && /pixel limit/i.test(error.message)) {
      throw new DomainError('PAYLOAD_TOO_LARGE', `Photos can be at most ${MAX_IMAGE_PIXELS / 1_000_000} megapixels.`);
    }
    throw unreadable();
  }
}
