import { randomUUID } from 'node:crypto';
import { JwtService } from '@nestjs/jwt';
import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER, errorBodySchema } from '@spark/contracts';
import { captureSpark, TINY_PNG } from '@spark/testing';
import { Client } from 'pg';
import { type InProcessStack, startInProcessStack } from './in-process-stack';

const JWT_SECRET = 'storage-outage-test-secret';
const client = { id: randomUUID(), email: `outage-${randomUUID().slice(0, 8)}@example.com`, role: 'client' as const };
const token = new JwtService({ secret: JWT_SECRET, signOptions: { algorithm: 'HS256' } }).sign(
  { sub: client.id, email: client.email, role: client.role },
  { expiresIn: 900, issuer: ACCESS_TOKEN_ISSUER, audience: ACCESS_TOKEN_AUDIENCE },
);

describe('a capture while the storage does not answer', () => {
  let stack: InProcessStack;
  let db: Client;

  beforeAll(async () => {
    stack = await startInProcessStack({ withNotifier: false, env: { JWT_SECRET } });
    db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await stack.stop();
  });

  it('answers 503 with a message to try again, and records nothing', async () => {
    // The file reached storage; then the storage server stops, as when S3 is away.
    const response = await captureSpark(stack.baseUrl, { authorization: `Bearer ${token}` }, { bytes: TINY_PNG, afterUpload: () => stack.s3.close() });
    expect(response.status).toBe(503);
    expect(errorBodySchema.parse(await response.json())).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      message: 'File storage is not answering right now. Please try again in a moment.',
    });
    const recorded = await db.query('SELECT count(*)::int AS sparks FROM progress.sparks WHERE user_id = $1', [client.id]);
    expect(recorded.rows[0]).toEqual({ sparks: 0 });
  });
});
