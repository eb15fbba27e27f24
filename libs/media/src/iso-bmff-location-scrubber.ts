import { heifMetadataPatches, type Patch, uncleanable } from './heif-metadata-items';

/** `movie`: MP4, MOV, 3GP. `heif`: HEIC and AVIF photos, whose top-level `meta` describes the picture. */
export type IsoBmffFlavour = 'movie' | 'heif';

type Action = 'descend' | 'scrub' | 'pass' | 'collect';

// Adobe's XMP box in MP4: a `uuid` box with this user type.
const XMP_UUID = Buffer.from('be7acfcb97a942e89c71999491e3afac', 'hex');
// A HEIF `meta` box lists items and properties: a few KiB, far below this even for tiled pictures.
const MAX_HEIF_META_BYTES = 4 * 1024 * 1024;
/**
 * The box headers a file may have where the scrubber reads them (the top level, `moov` and each `trak`): a recording
 * has tens, a fragmented one a few per fragment, a HEIF photo a handful. Each header costs the worker a step, so a
 * file of tiny boxes (eight bytes each, millions to a file) would hold it for many seconds before its end could be
 * refused.
 */
export const MAX_BOXES = 50_000;

/**
 * Which boxes carry metadata: `udta` (©xyz, XMP_, loci, …) and `meta` (QuickTime keys such as
 * com.apple.quicktime.location.ISO6709, iTunes-style tags) of the movie and of each track, and XMP
 * in a top-level `uuid`. Everything a player needs (mvhd, trak's media boxes, mdat) passes untouched.
 */
function actionFor(type: string, parents: string[], flavour: IsoBmffFlavour, userType: Buffer | undefined): Action {
  const parent = parents[parents.length - 1];
  if (parent === undefined) {
    if (type === 'moov') return 'descend';
    if (type === 'meta') return flavour === 'heif' ? 'collect' : 'scrub';
    if (type === 'udta' || (type === 'uuid' && userType?.equals(XMP_UUID))) return 'scrub';
    return 'pass';
  }
  if (parent === 'moov' && type === 'trak') return 'descend';
  return type === 'udta' || type === 'meta' ? 'scrub' : 'pass';
}

/**
 * Removes location and other identifying metadata from an ISO base media file as it streams, without
 * changing its length or any offset: a metadata box is renamed `free` and its payload zeroed, and in a
 * HEIF photo the Exif and XMP items' bytes are overwritten (empty Exif, blank XMP). Holds at most one
 * box header, or a HEIF photo's `meta` box, at a time.
 */
export class IsoBmffLocationScrubber {
  private pending: Buffer = Buffer.alloc(0);
  /** File offset of `pending`'s first byte. */
  private offset = 0;
  private readonly open: { type: string; end: number }[] = [];
  private run: { end: number; zero: boolean } | undefined;
  private patches: Patch[] = [];
  private boxes = 0;

  constructor(private readonly flavour: IsoBmffFlavour) {}

  /** The bytes that may go on now that `chunk` arrived. */
  write(chunk: Buffer): Buffer[] {
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    const out: Buffer[] = [];
    while (this.pending.length > 0 && this.step(out));
    return out;
  }

  /** The end of the file: a box cut short is passed on as it came, unless it is a HEIF `meta` box. */
  end(): Buffer[] {
    if (this.pending.length === 0) return [];
    const header = this.pending.toString('latin1', 4, 8);
    if (this.flavour === 'heif' && this.open.length === 0 && header === 'meta') throw uncleanable();
    return [this.take(this.pending.length)];
  }

  /** Handles what `pending` allows; false when more bytes are needed. */
  private step(out: Buffer[]): boolean {
    if (this.run) {
      const length = Math.min(this.pending.length, this.run.end - this.offset);
      out.push(this.run.zero ? (this.take(length), Buffer.alloc(length)) : this.take(length));
      if (this.offset === this.run.end) this.run = undefined;
      return true;
    }
    while (this.open.length && this.offset >= (this.open[this.open.length - 1] as { end: number }).end) this.open.pop();
    const header = this.readHeader();
    if (!header) return false;
    if (this.boxes === MAX_BOXES) throw uncleanable();
    const parentEnd = this.open[this.open.length - 1]?.end ?? Infinity;
    if (header.end > parentEnd) throw uncleanable();
    const action = actionFor(
      header.type,
      this.open.map((box) => box.type),
      this.flavour,
      header.userType,
    );
    if (action === 'collect') return this.collectHeifMeta(header, out);
    this.boxes++;
    const headerBytes = this.take(header.length);
    if (action === 'descend') {
      this.open.push({ type: header.type, end: header.end });
      out.push(headerBytes);
      return true;
    }
    if (action === 'scrub') {
      const renamed = Buffer.from(headerBytes.subarray(0, header.length));
      renamed.write('free', 4, 'latin1');
      renamed.fill(0, 8 + (header.largeSize ? 8 : 0));
      out.push(renamed);
    } else out.push(headerBytes);
    if (header.end > this.offset) this.run = { end: header.end, zero: action === 'scrub' };
    return true;
  }

  private readHeader(): { type: string; length: number; end: number; largeSize: boolean; userType?: Buffer } | undefined {
    if (this.pending.length < 8) return undefined;
    const size32 = this.pending.readUInt32BE(0);
    const type = this.pending.toString('latin1', 4, 8);
    const largeSize = size32 === 1;
    const length = (largeSize ? 16 : 8) + (type === 'uuid' ? 16 : 0);
    if (this.pending.length < length) return undefined;
    const size = largeSize ? Number(this.pending.readBigUInt64BE(8)) : size32;
    // Size 0: the box runs to the end of the file (allowed for the last top-level box only).
    if (size === 0 && this.open.length > 0) throw uncleanable();
    if (size !== 0 && size < length) throw uncleanable();
    const userType = type === 'uuid' ? this.pending.subarray(length - 16, length) : undefined;
    return { type, length, end: size === 0 ? Infinity : this.offset + size, largeSize, userType };
  }

  private collectHeifMeta(header: { length: number; end: number }, out: Buffer[]): boolean {
    const size = header.end - this.offset;
    if (size > MAX_HEIF_META_BYTES) throw uncleanable();
    if (this.pending.length < size) return false;
    this.boxes++;
    const start = this.offset;
    const meta = Buffer.from(this.take(size));
    for (const patch of heifMetadataPatches(meta, start, header.length)) {
      if (patch.start < start) throw uncleanable();
      this.patches.push(patch);
    }
    out.push(this.applyPatches(meta, start));
    return true;
  }

  /** Takes `length` bytes off `pending`, with every patch that falls on them applied. */
  private take(length: number): Buffer {
    const start = this.offset;
    const bytes = this.pending.subarray(0, length);
    this.pending = this.pending.subarray(length);
    this.offset += length;
    return this.patches.length ? this.applyPatches(bytes, start) : bytes;
  }

  private applyPatches(bytes: Buffer, start: number): Buffer {
    const end = start + bytes.length;
    const overlapping = this.patches.filter((patch) => patch.start < end && patch.start + patch.bytes.length > start);
    if (overlapping.length === 0) return bytes;
    const patched = Buffer.from(bytes);
    for (const patch of overlapping) {
      const from = Math.max(start, patch.start);
      const to = Math.min(end, patch.start + patch.bytes.length);
      patch.bytes.copy(patched, from - start, from - patch.start, to - patch.start);
    }
    this.patches = this.patches.filter((patch) => patch.start + patch.bytes.length > end);
    return patched;
  }
}
