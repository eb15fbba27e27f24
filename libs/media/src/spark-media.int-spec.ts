import { randomUUID } from 'node:crypto';
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

  it("re-encodes a client's small photo before another client's large one that was waiting already", async () => {
    const media = new SparkMedia(storage);
    const [script, other] = [randomUUID(), randomUUID()];
    // A flat picture at phone size: a few hundred KB, and a re-encode long enough to queue behind.
    const large = await sharp({ create: { width: 8000, height: 6000, channels: 3, background: '#78a0c8' } })
      .jpeg()
      .toBuffer();
    const uploads = await Promise.all([1, 2, 3].map(() => uploaded(script, large, 'image/jpeg')));
    const othersUpload = await uploaded(other);
    const larges = uploads.map((upload) => media.claimUpload(script, upload));
    // Once the first is stored, the second is being re-encoded and the third, read from S3 alongside, waits.
    await Promise.race(larges);
    await media.claimUpload(other, othersUpload);
    // Each store ends just after its re-encode, so the order of stores says little; a re-encode still running once
    // the small photo is stored says the last large one came after it.
    const reencodesRunning = sharp.counters().process;
    await Promise.all(larges);
    expect({ reencodesRunningOnceTheSmallPhotoIsStored: reencodesRunning }).toEqual({ reencodesRunningOnceTheSmallPhotoIsStored: 1 });
  });
});
