import { randomUUID } from 'node:crypto';
import { JwtService } from '@nestjs/jwt';
import {
  ACCESS_TOKEN_AUDIENCE,
  ACCESS_TOKEN_ISSUER,
  errorBodySchema,
  recordSparkResponseSchema,
  type UserRole,
  uploadedLogImageSchema,
} from '@spark/contracts';
import { captureSpark } from '@spark/testing';
import sharp from 'sharp';
import { type InProcessStack, startInProcessStack } from './in-process-stack';
import { boxPayload, isoBoxes, locationFixture, locationTraces } from './location-traces';

const JWT_SECRET = 'media-location-system-test-secret';
const jwt = new JwtService({ secret: JWT_SECRET });
const tokenFor = (role: UserRole) => {
  const sub = randomUUID();
  return jwt.sign(
    { sub, email: `${role}-${sub.slice(0, 8)}@example.com`, role },
    { expiresIn: 900, issuer: ACCESS_TOKEN_ISSUER, audience: ACCESS_TOKEN_AUDIENCE },
  );
};

const mimeOf: Record<string, string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  heic: 'image/heic',
  mp4: 'video/mp4',
  mov: 'video/quicktime',
};
// The format name sharp reports for each image fixture.
const sharpFormatOf: Record<string, string> = { jpg: 'jpeg', png: 'png', webp: 'webp', gif: 'gif', heic: 'heif' };

describe('location removed from every accepted upload, checked on the object read back from S3', () => {
  let stack: InProcessStack;
  const client = tokenFor('client');
  const admin = tokenFor('admin');

  beforeAll(async () => {
    stack = await startInProcessStack({ withNotifier: false, env: { JWT_SECRET } });
  });
  afterAll(() => stack.stop());

  const download = async (url: string | undefined) => Buffer.from(await (await fetch(url ?? '')).arrayBuffer());

  /** Captures a fixture as a spark and returns the stored object's bytes. */
  async function captureFixture(extension: string): Promise<Buffer> {
    const response = await captureSpark(
      stack.baseUrl,
      { authorization: `Bearer ${client}` },
      { bytes: locationFixture(extension), contentType: mimeOf[extension] },
    );
    expect(response.status).toBe(201);
    const body = recordSparkResponseSchema.parse(await response.json());
    expect(body.spark.fileType).toBe(mimeOf[extension]);
    return download(body.spark.fileUrl);
  }

  async function expectDecodableImage(stored: Buffer, extension: string): Promise<{ width: number; height: number }> {
    expect((await sharp(stored).metadata()).format).toBe(sharpFormatOf[extension]);
    const { info } = await sharp(stored, { animated: true }).raw().toBuffer({ resolveWithObject: true });
    return info;
  }

  it('starts from fixtures that really carry the location', async () => {
    for (const extension of Object.keys(mimeOf)) expect(await locationTraces(locationFixture(extension))).not.toEqual([]);
  });

  it.each(['jpg', 'png', 'webp', 'gif'])('a .%s photo captured as a spark keeps no location and still decodes', async (extension) => {
    const stored = await captureFixture(extension);
    expect(await locationTraces(stored)).toEqual([]);
    await expectDecodableImage(stored, extension);
  });

  it('stores a JPEG upright: its Exif orientation is applied to the pixels before the Exif goes', async () => {
    const stored = await captureFixture('jpg');
    const size = await expectDecodableImage(stored, 'jpg');
    expect({ width: size.width, height: size.height }).toEqual({ width: 48, height: 64 });
    expect((await sharp(stored).metadata()).orientation ?? 1).toBe(1);
  });

  it('a HEIC photo keeps no location, and its image items and properties are intact', async () => {
    const original = locationFixture('heic');
    const stored = await captureFixture('heic');
    expect(await locationTraces(stored)).toEqual([]);
    expect(stored.length).toBe(original.length);
    const metadata = await sharp(stored).metadata();
    expect({ format: metadata.format, width: metadata.width, height: metadata.height }).toEqual({ format: 'heif', width: 64, height: 48 });
    const originalBoxes = isoBoxes(original);
    expect(isoBoxes(stored)).toEqual(originalBoxes);
    // What describes and decodes the picture (items, properties, decoder configuration) is untouched;
    // only the bytes of the Exif and XMP items, inside mdat, changed.
    expect(boxPayload(stored, originalBoxes, 'meta')).toEqual(boxPayload(original, originalBoxes, 'meta'));
  });

  it.each(['mp4', 'mov'])('a .%s video keeps no location and still plays: same size, same tracks, same media data', async (extension) => {
    const original = locationFixture(extension);
    const stored = await captureFixture(extension);
    expect(await locationTraces(stored)).toEqual([]);
    expect(stored.length).toBe(original.length);
    const boxes = isoBoxes(stored);
    expect(boxes.map((box) => box.type)).toEqual(isoBoxes(original).map((box) => (box.type === 'uuid' ? 'free' : box.type)));
    expect(boxPayload(stored, boxes, 'mdat')).toEqual(boxPayload(original, isoBoxes(original), 'mdat'));
    const moov = boxes.find((box) => box.type === 'moov');
    const movieBoxes = isoBoxes(stored, (moov?.start ?? 0) + 8, (moov?.start ?? 0) + (moov?.size ?? 0)).map((box) => box.type);
    expect(movieBoxes).toEqual(expect.arrayContaining(['mvhd', 'trak']));
    expect(movieBoxes).not.toContain('udta');
    expect(movieBoxes).not.toContain('meta');
  });

  it('refuses a WebM video with 415: its tags cannot be checked for a location', async () => {
    const webm = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81]), Buffer.alloc(64)]);
    const response = await captureSpark(stack.baseUrl, { authorization: `Bearer ${client}` }, { bytes: webm, contentType: 'video/webm' });
    expect(response.status).toBe(415);
    expect(errorBodySchema.parse(await response.json())).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', message: expect.stringContaining('MP4') });
  });

  it.each(['jpg', 'png', 'webp', 'gif'])("a .%s Developer's Log image keeps no location and still decodes", async (extension) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(locationFixture(extension))], { type: mimeOf[extension] }), `chart.${extension}`);
    const response = await fetch(`${stack.baseUrl}/api/log/images`, { method: 'POST', headers: { authorization: `Bearer ${admin}` }, body: form });
    expect(response.status).toBe(201);
    const stored = await download(uploadedLogImageSchema.parse(await response.json()).previewUrl);
    expect(await locationTraces(stored)).toEqual([]);
    await expectDecodableImage(stored, extension);
  });

  // The preview is public on /donate, and the full deck goes to every investor with a code.
  it.each(['jpg', 'png', 'webp', 'gif'])('a .%s investor deck preview keeps no location and still decodes', async (extension) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(locationFixture(extension))], { type: mimeOf[extension] }), `deck.${extension}`);
    const response = await fetch(`${stack.baseUrl}/api/investors/deck/preview`, { method: 'PUT', headers: { authorization: `Bearer ${admin}` }, body: form });
    expect(response.status).toBe(200);
    const stored = await download(`${stack.baseUrl}/api/investors/deck/preview`);
    expect(await locationTraces(stored)).toEqual([]);
    await expectDecodableImage(stored, extension);
  });
});
