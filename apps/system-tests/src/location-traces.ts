import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import exifr from 'exifr';

/** A committed file carrying 52.5163 N, 13.3777 E (fixtures/location/README.md says where in each format). */
export const locationFixture = (extension: string): Buffer => readFileSync(join(__dirname, 'fixtures', 'location', `with-gps.${extension}`));

// 52° 30' 58.68" as Exif writes it: three RATIONALs, 52/1 30/1 5868/100, in either byte order.
const exifLatitude = (littleEndian: boolean) => {
  const values = Buffer.alloc(24);
  [52, 1, 30, 1, 5868, 100].forEach((value, index) => (littleEndian ? values.writeUInt32LE(value, index * 4) : values.writeUInt32BE(value, index * 4)));
  return values;
};

const textTraces: Record<string, string> = {
  'XMP latitude': '52,30.978',
  'ISO 6709 position': '52.5163',
  'camera maker': 'SparkTestCam',
  'IPTC/XMP city': 'Berlin',
};

/**
 * What is left of the fixtures' location (and of the camera maker) in a file, by its bytes alone, so
 * the check does not depend on a parser finding the place where it hides. Empty when the file is clean.
 */
export async function locationTraces(file: Buffer): Promise<string[]> {
  const found = Object.entries(textTraces)
    .filter(([, text]) => file.includes(text, 0, 'latin1'))
    .map(([name]) => name);
  if (file.includes(exifLatitude(true)) || file.includes(exifLatitude(false))) found.push('Exif GPS latitude');
  // exifr reads JPEG, PNG and HEIF; for the other formats it throws, and the byte checks above stand alone.
  const gps = await exifr.gps(file).catch(() => undefined);
  if (gps?.latitude !== undefined) found.push('GPS position readable by exifr');
  return found;
}

export interface IsoBox {
  type: string;
  start: number;
  size: number;
}

/** The top-level boxes of an ISO base media file (MP4, MOV, HEIF); throws unless they tile the file exactly. */
export function isoBoxes(file: Buffer, start = 0, end = file.length): IsoBox[] {
  const boxes: IsoBox[] = [];
  for (let at = start; at < end;) {
    if (at + 8 > end) throw new Error(`a box header is cut off at ${at}`);
    let size = file.readUInt32BE(at);
    if (size === 1) size = Number(file.readBigUInt64BE(at + 8));
    if (size === 0) size = end - at;
    if (size < 8 || at + size > end) throw new Error(`box at ${at} has an impossible size ${size}`);
    boxes.push({ type: file.toString('latin1', at + 4, at + 8), start: at, size });
    at += size;
  }
  return boxes;
}

/** The payload of the first box of a type among `boxes`. */
export const boxPayload = (file: Buffer, boxes: IsoBox[], type: string): Buffer => {
  const box = boxes.find((candidate) => candidate.type === type);
  if (!box) throw new Error(`no ${type} box`);
  return file.subarray(box.start + 8, box.start + box.size);
};
