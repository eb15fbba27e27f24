const EXIF_HEADER = Buffer.from('Exif\0\0', 'latin1');
const XMP_HEADER = Buffer.from('http://ns.adobe.com/xap/1.0/\0', 'latin1');
const GPS_POINTER_TAG = 0x8825;
// Bytes per value of each TIFF field type (1 BYTE, 2 ASCII, 3 SHORT, 4 LONG, 5 RATIONAL, ...).
const typeSizes: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8 };

/**
 * Blanks the GPS block of an Exif (APP1) segment in place: every GPS entry and the values it points
 * to are zeroed and the GPS directory left empty. Orientation and the rest of Exif stay, so photos
 * still display upright. A segment we cannot read is returned unchanged only if it has no GPS pointer.
 */
export function blankExifGps(segment: Buffer): void {
  const tiff = 4 + EXIF_HEADER.length; // after marker (2) + length (2) + "Exif\0\0"
  if (segment.length < tiff + 8) return;
  const little = segment.toString('latin1', tiff, tiff + 2) === 'II';
  const u16 = (at: number) => (little ? segment.readUInt16LE(at) : segment.readUInt16BE(at));
  const u32 = (at: number) => (little ? segment.readUInt32LE(at) : segment.readUInt32BE(at));
  const inside = (at: number, length: number) => at >= tiff && at + length <= segment.length;
  const ifd0 = tiff + u32(tiff + 4);
  if (!inside(ifd0, 2)) return;
  for (let entry = 0; entry < u16(ifd0); entry++) {
    const at = ifd0 + 2 + entry * 12;
    if (!inside(at, 12) || u16(at) !== GPS_POINTER_TAG) continue;
    const gps = tiff + u32(at + 8);
    if (!inside(gps, 2)) return;
    for (let field = 0; field < u16(gps); field++) {
      const gpsEntry = gps + 2 + field * 12;
      if (!inside(gpsEntry, 12)) break;
      const size = (typeSizes[u16(gpsEntry + 2)] ?? 1) * u32(gpsEntry + 4);
      const valueAt = tiff + u32(gpsEntry + 8);
      if (size > 4 && inside(valueAt, size)) segment.fill(0, valueAt, valueAt + size);
      segment.fill(0, gpsEntry, gpsEntry + 12);
    }
    segment.fill(0, gps, gps + 2);
  }
}

const isSegmentWithLength = (marker: number) => marker !== 0x01 && (marker < 0xd0 || marker > 0xd9);

/**
 * Passes a JPEG through chunk by chunk, removing location: the GPS block of Exif is blanked and XMP
 * packets (which may repeat the location) are dropped. Only header segments (each at most 64 KiB) are
 * held; from the start of the image data on, chunks pass straight through.
 */
export class JpegLocationStripper {
  private pending = Buffer.alloc(0);
  private inImageData = false;
  private sawStart = false;

  /** The bytes that may go on now that `chunk` arrived (none while a header segment is incomplete). */
  write(chunk: Buffer): Buffer[] {
    if (this.inImageData) return [chunk];
    const out: Buffer[] = [];
    this.pending = Buffer.concat([this.pending, chunk]);
    this.drainHeaders(out);
    return out;
  }

  /** What is left at the end of the file. */
  end(): Buffer[] {
    const rest = this.pending;
    this.pending = Buffer.alloc(0);
    return rest.length ? [rest] : [];
  }

  private drainHeaders(out: Buffer[]): void {
    if (!this.sawStart) {
      if (this.pending.length < 2) return;
      out.push(this.pending.subarray(0, 2));
      this.pending = this.pending.subarray(2);
      this.sawStart = true;
    }
    while (this.pending.length >= 4) {
      const marker = this.pending[1] as number;
      // Anything unexpected (or the start of scan) ends header parsing: pass the rest through untouched.
      if (this.pending[0] !== 0xff || marker === 0xda || !isSegmentWithLength(marker)) return this.passThroughRest(out);
      const total = 2 + this.pending.readUInt16BE(2);
      if (this.pending.length < total) return;
      const segment = Buffer.from(this.pending.subarray(0, total));
      this.pending = this.pending.subarray(total);
      if (marker === 0xe1 && segment.subarray(4, 4 + XMP_HEADER.length).equals(XMP_HEADER)) continue;
      if (marker === 0xe1 && segment.subarray(4, 4 + EXIF_HEADER.length).equals(EXIF_HEADER)) blankExifGps(segment);
      out.push(segment);
    }
  }

  private passThroughRest(out: Buffer[]): void {
    this.inImageData = true;
    out.push(this.pending);
    this.pending = Buffer.alloc(0);
  }
}
