export interface SniffedType {
  mime: string;
  ext: string;
  kind: 'image' | 'video';
}

/** How many leading bytes `sniffFileType` needs to decide. */
export const SNIFF_BYTES = 16;

const ascii = (bytes: Buffer, start: number, end: number) => bytes.subarray(start, end).toString('latin1');
const startsWith = (bytes: Buffer, signature: number[]) => signature.every((byte, index) => bytes[index] === byte);

// ISO base media files (mp4, mov, heic) name their flavour in the `ftyp` box's major brand.
const isoBrands: Record<string, SniffedType> = {
  heic: { mime: 'image/heic', ext: 'heic', kind: 'image' },
  heix: { mime: 'image/heic', ext: 'heic', kind: 'image' },
  mif1: { mime: 'image/heif', ext: 'heif', kind: 'image' },
  msf1: { mime: 'image/heif', ext: 'heif', kind: 'image' },
  'qt  ': { mime: 'video/quicktime', ext: 'mov', kind: 'video' },
};
const mp4: SniffedType = { mime: 'video/mp4', ext: 'mp4', kind: 'video' };

/**
 * The real type of an upload from its first bytes (magic numbers), whatever its name or declared
 * type says. Only what a phone camera or gallery produces is accepted; anything else is undefined.
 */
export function sniffFileType(head: Buffer): SniffedType | undefined {
  if (startsWith(head, [0xff, 0xd8, 0xff])) return { mime: 'image/jpeg', ext: 'jpg', kind: 'image' };
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { mime: 'image/png', ext: 'png', kind: 'image' };
  if (ascii(head, 0, 6) === 'GIF87a' || ascii(head, 0, 6) === 'GIF89a') return { mime: 'image/gif', ext: 'gif', kind: 'image' };
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return { mime: 'image/webp', ext: 'webp', kind: 'image' };
  if (startsWith(head, [0x1a, 0x45, 0xdf, 0xa3])) return { mime: 'video/webm', ext: 'webm', kind: 'video' };
  if (head.length >= 12 && ascii(head, 4, 8) === 'ftyp') return isoBrands[ascii(head, 8, 12)] ?? mp4;
  return undefined;
}
