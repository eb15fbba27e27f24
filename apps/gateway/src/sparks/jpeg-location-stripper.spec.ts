import { JpegLocationStripper } from './jpeg-location-stripper';

const LATITUDE = [52, 1, 31, 1, 4512, 100];

// A little-endian Exif block: IFD0 holds Orientation and the GPS pointer; the GPS IFD holds N 52°31'45.12".
function exifSegment(): Buffer {
  const tiff = Buffer.alloc(8 + 2 + 24 + 4 + 2 + 24 + 4 + 24);
  tiff.write('II', 0, 'latin1');
  tiff.writeUInt16LE(42, 2);
  tiff.writeUInt32LE(8, 4);
  tiff.writeUInt16LE(2, 8);
  [0x0112, 3, 1, 6].forEach((value, index) => (index < 2 ? tiff.writeUInt16LE(value, 10 + index * 2) : tiff.writeUInt32LE(value, 10 + index * 4 - 4)));
  tiff.writeUInt16LE(0x8825, 22);
  tiff.writeUInt16LE(4, 24);
  tiff.writeUInt32LE(1, 26);
  tiff.writeUInt32LE(38, 30);
  tiff.writeUInt16LE(2, 38);
  tiff.writeUInt16LE(0x0001, 40);
  tiff.writeUInt16LE(2, 42);
  tiff.writeUInt32LE(2, 44);
  tiff.write('N\0', 48, 'latin1');
  tiff.writeUInt16LE(0x0002, 52);
  tiff.writeUInt16LE(5, 54);
  tiff.writeUInt32LE(3, 56);
  tiff.writeUInt32LE(68, 60);
  LATITUDE.forEach((value, index) => tiff.writeUInt32LE(value, 68 + index * 4));
  const body = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const header = Buffer.from([0xff, 0xe1, 0, 0]);
  header.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([header, body]);
}

const xmpSegment = () => {
  const body = Buffer.from('http://ns.adobe.com/xap/1.0/\0<x:xmpmeta exif:GPSLatitude="52,31.75N"/>', 'latin1');
  const header = Buffer.from([0xff, 0xe1, 0, 0]);
  header.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([header, body]);
};

const imageData = Buffer.from([0xff, 0xda, 0x00, 0x08, 1, 2, 3, 4, 5, 6, 0x12, 0x34, 0xff, 0xd9]);
const jpeg = () => Buffer.concat([Buffer.from([0xff, 0xd8]), exifSegment(), xmpSegment(), imageData]);

function strip(input: Buffer, chunkSize: number): Buffer {
  const stripper = new JpegLocationStripper();
  const out: Buffer[] = [];
  for (let at = 0; at < input.length; at += chunkSize) out.push(...stripper.write(input.subarray(at, at + chunkSize)));
  return Buffer.concat([...out, ...stripper.end()]);
}

describe('JpegLocationStripper', () => {
  it.each([1, 7, 4096])('removes the GPS coordinates and the XMP packet, in chunks of %i bytes', (chunkSize) => {
    const output = strip(jpeg(), chunkSize);
    const latitude = Buffer.alloc(24);
    LATITUDE.forEach((value, index) => latitude.writeUInt32LE(value, index * 4));
    expect(jpeg().includes(latitude)).toBe(true);
    expect(output.includes(latitude)).toBe(false);
    expect(output.includes(Buffer.from('GPSLatitude'))).toBe(false);
    expect(output.includes(Buffer.from('N\0', 'latin1'))).toBe(false);
  });

  it('keeps the rest of Exif (orientation) and the image data byte for byte', () => {
    const output = strip(jpeg(), 5);
    expect(output.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect(output.subarray(-imageData.length)).toEqual(imageData);
    expect(output.length).toBe(jpeg().length - xmpSegment().length);
    expect(output.readUInt16LE(2 + 4 + 6 + 10 + 8)).toBe(6);
  });
});
