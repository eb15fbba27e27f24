import { randomUUID } from 'node:crypto';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { JwtService } from '@nestjs/jwt';
import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER, errorBodySchema, recordSparkResponseSchema } from '@spark/contracts';
import { captureSpark, eventually } from '@spark/testing';
import { Client } from 'pg';
import { type InProcessStack, startInProcessStack } from './in-process-stack';
import { locationFixture } from './location-traces';

const JWT_SECRET = 'storage-quota-system-test-secret';
const jwt = new JwtService({ secret: JWT_SECRET });
// A video is stored at exactly its uploaded size (its metadata is blanked in place), so sizes are known.
const VIDEO = locationFixture('mp4');
// Room for two of these videos, not three.
const QUOTA_BYTES = 2 * VIDEO.length + 100;

const newClient = () => {
  const id = randomUUID();
  return {
    id,
    token: jwt.sign(
      { sub: id, email: `quota-${id.slice(0, 8)}@example.com`, role: 'client' },
      { expiresIn: 900, issuer: ACCESS_TOKEN_ISSUER, audience: ACCESS_TOKEN_AUDIENCE },
    ),
  };
};

describe('the per-client storage quota', () => {
  let stack: InProcessStack;
  let db: Client;
  let s3: S3Client;

  beforeAll(async () => {
    stack = await startInProcessStack({ withNotifier: false, env: { JWT_SECRET, STORAGE_QUOTA_BYTES: String(QUOTA_BYTES), UPLOADS_PER_USER: '6' } });
    db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
    s3 = new S3Client({
      endpoint: stack.s3.config.S3_ENDPOINT,
      region: stack.s3.config.S3_REGION,
      forcePathStyle: true,
      credentials: { accessKeyId: stack.s3.config.S3_ACCESS_KEY_ID, secretAccessKey: stack.s3.config.S3_SECRET_ACCESS_KEY },
    });
  });
  afterAll(async () => {
    s3.destroy();
    await db.end();
    await stack.stop();
  });

  const capture = (client: { token: string }, clientSparkId = randomUUID()) =>
    captureSpark(stack.baseUrl, { authorization: `Bearer ${client.token}` }, { bytes: VIDEO, contentType: 'video/mp4', clientSparkId, resendWhileBusy: true });
  const storedObjects = async (userId: string) =>
    (await s3.send(new ListObjectsV2Command({ Bucket: stack.s3.config.S3_BUCKET, Prefix: `${userId}/` }))).KeyCount ?? 0;
  const uploadsDeleted = (userId: string) =>
    eventually(async () => (await stack.s3.keysUnder(`incoming/${userId}/`)).length === 0, 5_000, 'the released uploads to be deleted');
  const recorded = async (userId: string) => {
    const sparks = await db.query('SELECT count(*)::int AS count, coalesce(sum(file_bytes), 0)::bigint AS bytes FROM progress.sparks WHERE user_id = $1', [
      userId,
    ]);
    const progress = await db.query('SELECT stored_bytes FROM progress.user_progress WHERE user_id = $1', [userId]);
    return { sparks: sparks.rows[0].count, sparkBytes: Number(sparks.rows[0].bytes), storedBytes: Number(progress.rows[0]?.stored_bytes ?? 0) };
  };

  it('refuses the capture that would go past the quota with 413 and clear words before the file is sent, keeping nothing of it', async () => {
    const client = newClient();
    expect((await capture(client)).status).toBe(201);
    expect((await capture(client)).status).toBe(201);
    const refused = await fetch(`${stack.baseUrl}/api/sparks/uploads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${client.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ clientSparkId: randomUUID(), bytes: VIDEO.length, contentType: 'video/mp4' }),
    });
    expect(refused.status).toBe(413);
    const body = errorBodySchema.parse(await refused.json());
    expect(body.code).toBe('PAYLOAD_TOO_LARGE');
    expect(body.message).toMatch(/^Your storage is full/);
    expect(await recorded(client.id)).toEqual({ sparks: 2, sparkBytes: 2 * VIDEO.length, storedBytes: 2 * VIDEO.length });
    expect(await storedObjects(client.id)).toBe(2);
    await uploadsDeleted(client.id);
  });

  it('does not count a retried capture twice, even when the storage is full', async () => {
    const client = newClient();
    const clientSparkId = randomUUID();
    expect((await capture(client, clientSparkId)).status).toBe(201);
    expect((await capture(client)).status).toBe(201);
    const retry = await capture(client, clientSparkId);
    expect(retry.status).toBe(201);
    expect(recordSparkResponseSchema.parse(await retry.json()).created).toBe(false);
    expect(await recorded(client.id)).toEqual({ sparks: 2, sparkBytes: 2 * VIDEO.length, storedBytes: 2 * VIDEO.length });
    expect(await storedObjects(client.id)).toBe(2);
  });

  it('grants a recorded capture no more than its first attempt would get now, so its id cannot skip the quota', async () => {
    const client = newClient();
    const clientSparkId = randomUUID();
    expect((await capture(client, clientSparkId)).status).toBe(201);
    expect((await capture(client)).status).toBe(201);
    const grant = (bytes: number) =>
      fetch(`${stack.baseUrl}/api/sparks/uploads`, {
        method: 'POST',
        headers: { authorization: `Bearer ${client.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ clientSparkId, bytes, contentType: 'video/mp4' }),
      });

    const oversized = await grant(100 * 1024 * 1024);
    expect(oversized.status).toBe(413);
    expect(errorBodySchema.parse(await oversized.json()).message).toMatch(/^Your storage is full/);
    expect((await grant(VIDEO.length)).status).toBe(201);
  });

  // Granted together, before any is recorded: the quota is held again when each is recorded.
  it('lets concurrent captures fill the quota exactly, never past it, and keeps no file of the refused ones', async () => {
    const client = newClient();
    const statuses = (await Promise.all(Array.from({ length: 6 }, () => capture(client)))).map((response) => response.status);
    expect(statuses.sort()).toEqual([201, 201, 413, 413, 413, 413]);
    expect(await recorded(client.id)).toEqual({ sparks: 2, sparkBytes: 2 * VIDEO.length, storedBytes: 2 * VIDEO.length });
    expect(await storedObjects(client.id)).toBe(2);
    await uploadsDeleted(client.id);
  });
});
