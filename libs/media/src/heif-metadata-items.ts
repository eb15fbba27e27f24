import { DomainError } from '@spark/errors';

/** A byte range of the file, and what to write over it. */
export interface Patch {
  start: number;
  bytes: Buffer;
}

const XMP_CONTENT_TYPE = 'application/rdf+xml';
// An Exif item: a 4-byte offset to its TIFF header (0: it follows at once), then a valid TIFF with one empty IFD.
const EMPTY_EXIF = Buffer.from([0, 0, 0, 0, 0x4d, 0x4d, 0x00, 0x2a, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0]);
// An XMP packet with nothing in it; the rest of the item becomes the padding the XMP format allows.
const EMPTY_XMP = Buffer.from('<x:xmpmeta xmlns:x="adobe:ns:meta/"/>', 'latin1');

export const uncleanable = () =>
  new DomainError(
    'UNSUPPORTED_MEDIA_TYPE',
    'This file could not be checked for location data, so it was not saved. Please export it again or choose another one.',
  );

interface Box {
  type: string;
  /** Offset of the payload (after the header) and of the end, within the buffer. */
  payload: number;
  end: number;
}

function* childBoxes(buffer: Buffer, start: number, end: number): Generator<Box> {
  for (let at = start; at + 8 <= end;) {
    let size = buffer.readUInt32BE(at);
    let header = 8;
    if (size === 1) {
      size = Number(buffer.readBigUInt64BE(at + 8));
      header = 16;
    }
    if (size === 0) size = end - at;
    if (size < header || at + size > end) throw uncleanable();
    yield { type: buffer.toString('latin1', at + 4, at + 8), payload: at + header, end: at + size };
    at += size;
  }
}

/** Reads big-endian unsigned integers of 0, 2, 4 or 8 bytes in turn, as ISO BMFF tables are written. */
class Reader {
  constructor(
    private readonly buffer: Buffer,
    public at: number,
    private readonly end: number,
  ) {}

  uint(bytes: number): number {
    if (this.at + bytes > this.end) throw uncleanable();
    const value =
      bytes === 0
        ? 0
        : bytes === 2
          ? this.buffer.readUInt16BE(this.at)
          : bytes === 4
            ? this.buffer.readUInt32BE(this.at)
            : bytes === 8
              ? Number(this.buffer.readBigUInt64BE(this.at))
              : NaN;
    if (Number.isNaN(value)) throw uncleanable();
    this.at += bytes;
    return value;
  }

  text(): string {
    const zero = this.buffer.indexOf(0, this.at);
    const stop = zero === -1 || zero > this.end ? this.end : zero;
    const value = this.buffer.toString('latin1', this.at, stop);
    this.at = stop + 1;
    return value;
  }
}

/** Item ids of the Exif and XMP items, from `iinf` (item info entries of version 2 and 3, and 0/1 by MIME type). */
function metadataItems(meta: Buffer, iinf: Box): Map<number, 'exif' | 'xmp'> {
  const items = new Map<number, 'exif' | 'xmp'>();
  const version = meta[iinf.payload] as number;
  const entriesStart = iinf.payload + 4 + (version === 0 ? 2 : 4);
  for (const infe of childBoxes(meta, entriesStart, iinf.end)) {
    if (infe.type !== 'infe') continue;
    const reader = new Reader(meta, infe.payload, infe.end);
    const infeVersion = reader.uint(4) >>> 24;
    const itemId = reader.uint(infeVersion === 3 ? 4 : 2);
    reader.uint(2); // protection index
    if (infeVersion >= 2) {
      const itemType = meta.toString('latin1', reader.at, reader.at + 4);
      reader.at += 4;
      reader.text(); // item name
      if (itemType === 'Exif') items.set(itemId, 'exif');
      if (itemType === 'mime' && reader.text() === XMP_CONTENT_TYPE) items.set(itemId, 'xmp');
    } else {
      reader.text(); // item name
      if (reader.text() === XMP_CONTENT_TYPE) items.set(itemId, 'xmp');
    }
  }
  return items;
}

interface Extent {
  start: number;
  length: number;
}

/** Where each wanted item's bytes are, from `iloc`: absolute file offsets (or inside `idat`). */
function itemExtents(meta: Buffer, metaStart: number, iloc: Box, idat: Box | undefined, wanted: Map<number, unknown>): Map<number, Extent[]> {
  const reader = new Reader(meta, iloc.payload, iloc.end);
  const version = reader.uint(4) >>> 24;
  const sizes = reader.uint(2);
  const [offsetSize, lengthSize, baseOffsetSize, indexSize] = [sizes >> 12, (sizes >> 8) & 15, (sizes >> 4) & 15, version === 0 ? 0 : sizes & 15];
  const itemCount = reader.uint(version < 2 ? 2 : 4);
  const extents = new Map<number, Extent[]>();
  for (let item = 0; item < itemCount; item++) {
    const itemId = reader.uint(version < 2 ? 2 : 4);
    const constructionMethod = version === 0 ? 0 : reader.uint(2) & 15;
    const dataReference = reader.uint(2);
    const baseOffset = reader.uint(baseOffsetSize);
    const count = reader.uint(2);
    const list: Extent[] = [];
    for (let extent = 0; extent < count; extent++) {
      reader.uint(indexSize);
      const offset = reader.uint(offsetSize);
      const length = reader.uint(lengthSize);
      list.push({ start: baseOffset + offset, length });
    }
    // Data in another file (a data reference) is not in this upload.
    if (!wanted.has(itemId) || dataReference !== 0) continue;
    if (constructionMethod === 1) {
      if (!idat) throw uncleanable();
      for (const extent of list) extent.start += metaStart + idat.payload;
    } else if (constructionMethod !== 0) throw uncleanable();
    if (list.some((extent) => extent.length === 0)) throw uncleanable();
    extents.set(itemId, list);
  }
  return extents;
}

/** The replacement bytes of one item, cut along its extents. */
function patchesFor(kind: 'exif' | 'xmp', extents: Extent[]): Patch[] {
  const total = extents.reduce((sum, extent) => sum + extent.length, 0);
  // Each item stays readable, empty: Exif a TIFF block without entries, XMP a packet without properties.
  const replacement = kind === 'xmp' ? Buffer.alloc(total, 0x20) : Buffer.alloc(total);
  const empty = kind === 'xmp' ? EMPTY_XMP : EMPTY_EXIF;
  if (total >= empty.length) empty.copy(replacement);
  let used = 0;
  return extents.map((extent) => {
    const bytes = replacement.subarray(used, used + extent.length);
    used += extent.length;
    return { start: extent.start, bytes };
  });
}

/**
 * A HEIF (HEIC, AVIF) `meta` box, whole, starting at `metaStart` in the file: the patches that empty
 * its Exif items and blank its XMP items, wherever their bytes are (usually in `mdat`, after it).
 */
export function heifMetadataPatches(meta: Buffer, metaStart: number, headerLength: number): Patch[] {
  const children = [...childBoxes(meta, headerLength + 4, meta.length)];
  const iinf = children.find((box) => box.type === 'iinf');
  const iloc = children.find((box) => box.type === 'iloc');
  if (!iinf) return [];
  const items = metadataItems(meta, iinf);
  if (items.size === 0) return [];
  if (!iloc) throw uncleanable();
  const extents = itemExtents(
    meta,
    metaStart,
    iloc,
    children.find((box) => box.type === 'idat'),
    items,
  );
  return [...extents].flatMap(([itemId, list]) => patchesFor(items.get(itemId) as 'exif' | 'xmp', list));
}
