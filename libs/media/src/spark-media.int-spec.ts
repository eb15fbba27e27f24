import { randomBytes, randomUUID } from 'node:crypto';
import { SPARK_IMAGE_MAX_BYTES } from '@spark/contracts';
import { DomainError } from '@spark/errors';
import { ObjectStorage } from '@spark/storage';
import { startTestS3, type TestS3, TINY_PNG } from '@spark/testing';
import sharp from 'sharp';
import { SparkMedia } from './spark-media';
import { incomingSparkKey, type SparkUpload } from './spark-media-keys';

describe('SparkMedia claims (real S3)', () => {
  let s3: TestS3;
  let storage: ObjectStorage;
  beforeAll(async () => {
    s3 = await startTestS3();
    storage = new ObjectStorage(s3.config);
  });
  afterAll(async () => {
    await storage?.close();
    await s3?.close();
  });

  const uploaded = async (userId: string, body = TINY_PNG, contentType = 'image/png'): Promise<SparkUpload> => {
    const upload = { clientSparkId: randomUUID(), uploadId: randomUUID() };
    await storage.put({ key: incomingSparkKey(userId, upload), body, contentType });
    return upload;
  };

  it("claims at most three of one client's uploads at once, refusing a fourth for a moment and keeping its upload, while others' run", async () => {
    const media = new SparkMedia(storage);
    const [script, other] = [randomUUID(), randomUUID()];
    const uploads = await Promise.all([uploaded(script), uploaded(script), uploaded(script), uploaded(script)]);
    const othersUpload = await uploaded(other);

    const claims = await Promise.allSettled([...uploads.map((upload) => media.claimUpload(script, upload)), media.claimUpload(other, othersUpload)]);
    expect(claims.map((claim) => claim.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    const refusal = (claims[3] as PromiseRejectedResult).reason as DomainError;
    expect(refusal).toBeInstanceOf(DomainError);
    expect({ code: refusal.code, message: refusal.message, retryAfterSeconds: refusal.details?.retryAfterSeconds }).toEqual({
      code: 'RATE_LIMITED',
      message: 'Your earlier sparks are still being saved. Please try again in 5 seconds.',
      retryAfterSeconds: 5,
    });

    // The refused upload is still there, and claimed once the others are done.
    const fourth = uploads[3] as SparkUpload;
    expect(await storage.exists(incomingSparkKey(script, fourth))).toBe(true);
    await expect(media.claimUpload(script, fourth)).resolves.toMatchObject({ type: { mime: 'image/png' } });
  });

  it("re-encodes a client's small photo behind the one running and at most one large photo of each other client", async () => {
    const media = new SparkMedia(storage);
    const clients = { A: randomUUID(), B: randomUUID(), C: randomUUID() };
    // Noise compresses as badly as a detailed photo: over a third of the bytes held at once, so two fill them.
    const [width, height] = [2400, 1800];
    const large = await sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
      .jpeg({ quality: 100, chromaSubsampling: '4:4:4' })
      .toBuffer();
    expect(large.length).toBeGreaterThan(SPARK_IMAGE_MAX_BYTES * (2 / 3));
    const threeLarge = (userId: string) => Promise.all([1, 2, 3].map(() => uploaded(userId, large, 'image/jpeg')));
    const [a, c] = [await threeLarge(clients.A), await threeLarge(clients.C)];
    const small = await uploaded(clients.B);

    // Re-encodes run one at a time and a photo's store begins as its re-encode ends, before the next can end: the
    // stores begin in the order of the re-encodes.
    const reencoded: string[] = [];
    let firstStored = () => {};
    const firstStore = new Promise<void>((resolve) => (firstStored = resolve));
    const put = storage.put.bind(storage);
    jest.spyOn(storage, 'put').mockImplementation((object) => {
      reencoded.push(Object.entries(clients).find(([, userId]) => object.key.startsWith(`${userId}/`))?.[0] ?? object.key);
      firstStored();
      return put(object);
    });
    try {
      const larges = [...a.map((upload) => media.claimUpload(clients.A, upload)), ...c.map((upload) => media.claimUpload(clients.C, upload))];
      await firstStore;
      const sentAfter = reencoded.length;
      await Promise.all([...larges, media.claimUpload(clients.B, small)]);
      // Once B sends, it may wait behind the re-encode running and one photo of each other client, no more.
      const [, ...waitedBehind] = reencoded.slice(sentAfter, reencoded.indexOf('B'));
      const clientsTwice = waitedBehind.filter((client, index) => waitedBehind.indexOf(client) !== index);
      expect({ reencoded, clientsTwice }).toEqual({ reencoded, clientsTwice: [] });
    } finally {
      jest.restoreAllMocks();
    }
  });
});
