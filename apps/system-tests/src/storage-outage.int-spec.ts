import { errorBodySchema } from '@spark/contracts';
import { captureSpark, TINY_PNG } from '@spark/testing';
import { Client } from 'pg';
import { createSignedInUser, TEST_JWT_SECRET } from './ditl-auth';
import { type InProcessStack, startInProcessStack } from './in-process-stack';

describe('a capture while the storage does not answer', () => {
  let stack: InProcessStack;
  let db: Client;

  beforeAll(async () => {
    stack = await startInProcessStack({ withNotifier: false, env: { JWT_SECRET: TEST_JWT_SECRET } });
    db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await stack.stop();
  });

  it('answers 503 with a message to try again, and records nothing', async () => {
    const client = await createSignedInUser(db, 'outage@spark.test');
    // The file reached storage; then the storage server stops, as when S3 is away.
    const response = await captureSpark(stack.baseUrl, { authorization: `Bearer ${client.token}` }, { bytes: TINY_PNG, afterUpload: () => stack.s3.close() });
    expect(response.status).toBe(503);
    expect(errorBodySchema.parse(await response.json())).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      message: 'File storage is not answering right now. Please try again in a moment.',
    });
    const recorded = await db.query('SELECT count(*)::int AS sparks FROM progress.sparks WHERE user_id = $1', [client.id]);
    expect(recorded.rows[0]).toEqual({ sparks: 0 });
  });
});
