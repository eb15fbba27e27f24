import { randomUUID } from 'node:crypto';
import { DomainError } from '@spark/errors';
import { ObjectStorage } from '@spark/storage';
import { startTestS3, type TestS3, TINY_PNG } from '@spark/testing';
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

  const uploaded = async (userId: string): Promise<SparkUpload> => {
    const upload = { clientSparkId: randomUUID(), uploadId: randomUUID() };
    await storage.put({ key: incomingSparkKey(userId, upload), body: TINY_PNG, contentType: 'image/png' });
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
});
