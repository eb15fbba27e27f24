import type { RasterFormat } from './image-reencoder';
import type { IsoBmffFlavour } from './iso-bmff-location-scrubber';

/** How the location is taken out: decoded and encoded again, or metadata boxes blanked in the stream. */
export type LocationCleaning = { by: 'reencode'; format: RasterFormat } | { by: 'iso-bmff'; flavour: IsoBmffFlavour };

export interface SniffedType {
  mime: string;
  ext: string;
  kind: 'image' | 'video';
  cleaning: LocationCleaning;
}

/** How many leading bytes `sniffFileType` needs to decide. */
export const SNIFF_BYTES = 16;

const ascii = (bytes: Buffer, start: number, end: number) => bytes.subarray(start, end).toString('latin1');
const startsWith = (bytes: Buffer, signature: number[]) => signature.every((byte, index) => bytes[index] === byte);

const raster = (format: RasterFormat, ext: string): SniffedType => ({ mime: `image/${format}`, ext, kind: 'image', cleaning: { by: 'reencode', format } });
const heif = (mime: string, ext: string): SniffedType => ({ mime, ext, kind: 'image', cleaning: { by: 'iso-bmff', flavour: 'heif' } });
const movie = (mime: string, ext: string): SniffedType => ({ mime, ext, kind: 'video', cleaning: { by: 'iso-bmff', flavour: 'movie' } });

// ISO base media files (mp4, mov, heic, avif) name their flavour in the `ftyp` box's major brand.
const isoBrands: Record<string, SniffedType> = {
  heic: heif('image/heic', 'heic'),
  heix: heif('image/heic', 'heic'),
  mif1: heif('image/heif', 'heif'),
  msf1: heif('image/heif', 'heif'),
  avif: heif('image/avif', 'avif'),
  'qt  ': movie('video/quicktime', 'mov'),
};
const mp4 = movie('video/mp4', 'mp4');

/**
 * The real type of an upload from its first bytes (magic numbers), whatever its name or declared
 * type says. Only what a phone camera or gallery produces, and what we can clean of its location, is
 * accepted; anything else is undefined. WebM is refused: a Matroska tag may hold a location and we
 * do not parse them.
 */
export function sniffFileType(head: Buffer): SniffedType | undefined {
  if (startsWith(head, [0xff, 0xd8, 0xff])) return raster('jpeg', 'jpg');
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return raster('png', 'png');
  if (ascii(head, 0, 6) === 'GIF87a' || ascii(head, 0, 6) === 'GIF89a') return raster('gif', 'gif');
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return raster('webp', 'webp');
  if (head.length >= 12 && ascii(head, 4, 8) === 'ftyp') return isoBrands[ascii(head, 8, 12)] ?? mp4;
  return undefined;
}
