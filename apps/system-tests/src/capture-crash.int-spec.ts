import { randomUUID } from 'node:crypto';
import { recordSparkResponseSchema, sparkUploadGrantSchema } from '@spark/contracts';
import { endLockWaiters, eventually, insertProgress, lockWaiters, startTestS3, type TestS3, TINY_PNG } from '@spark/testing';
import { Client } from 'pg';
import { type ReplicaBed, openReplicaBed } from './replica-bed';

/**
 * A progress-service replica that dies in the middle of recording a capture, after it cleaned the uploaded file and
 * before the spark is committed: the request is taken over by another replica, which must still record the spark
 * from the upload instead of answering that the upload is gone. The test holds the client's progress row locked so
 * the recording waits right before its write, kills the replica there, and starts a fresh one.
 */
describe('a capture whose replica dies before the spark is committed', () => {
  let s3: TestS3;
  let bed: ReplicaBed;
  const replica = () => bed.replica('progress-service/src/main');
  const count = async (sql: string, values: unknown[]) => Number((await bed.db.query(sql, values)).rows[0].n);

  beforeAll(async () => {
    s3 = await startTestS3();
    bed = await openReplicaBed('capture-crash', { requestTimeoutMs: 60_000, env: s3.env });
  }, 60_000);
  afterAll(async () => {
    await bed?.close();
    await s3?.close();
  });

  it('records the spark once, from the upload, and deletes the upload', async () => {
    const doomed = await replica();
    const userId = randomUUID();
    const email = `crash-${userId}@example.com`;
    await insertProgress(bed.db, { userId, email, fullName: 'Ines Duarte', goal: 'Draw every day' });
    const clientSparkId = randomUUID();
    const grant = sparkUploadGrantSchema.parse(
      await bed.client.request('progress.grant-spark-upload', { userId, clientSparkId, bytes: TINY_PNG.length, contentType: 'image/png' }),
    );
    expect((await fetch(grant.url, { method: 'PUT', headers: grant.headers, body: TINY_PNG })).status).toBe(200);

    const lock = new Client({ connectionString: bed.databaseUrl });
    await lock.connect();
    await lock.query('BEGIN');
    await lock.query('SELECT 1 FROM progress.user_progress WHERE user_id = $1 FOR UPDATE', [userId]);
    const answer = bed.client.request('progress.record-spark', {
      userId,
      clientSparkId,
      uploadId: grant.uploadId,
      note: 'Ten minutes',
      timeZone: 'UTC',
      email,
    });
    try {
      await eventually(async () => (await lockWaiters(bed.db, 'progress.user_progress')) === 1, 30_000, 'the recording to wait on the progress row');
      await bed.killReplicas();
      // The dead replica's queued write must not run once the row is free.
      await endLockWaiters(bed.db);
    } finally {
      await lock.query('ROLLBACK');
      await lock.end();
    }
    expect(doomed.signalCode).toBe('SIGKILL');
    await replica();

    const recorded = recordSparkResponseSchema.parse(await answer);
    expect(recorded.created).toBe(true);
    expect(await count(`SELECT count(*)::int AS n FROM progress.sparks WHERE user_id = $1`, [userId])).toBe(1);
    // Released for deletion once the spark was recorded.
    await eventually(async () => (await s3.keysUnder(`incoming/${userId}/`)).length === 0, 5_000, 'the released upload to be deleted');
    // The dead replica's cleaned copy may stay beside it; the recorded spark points at a file that exists.
    expect(await s3.keysUnder(`${userId}/`)).toContain(recorded.spark.fileKey);
  }, 120_000);
});
