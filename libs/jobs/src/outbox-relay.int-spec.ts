import { randomUUID } from 'node:crypto';
import { developmentSigningKeys } from '@spark/config';
import { QUEUES } from '@spark/contracts';
import { createLogger } from '@spark/logging';
import { signedLeadSubmission } from '@spark/messaging';
import { openMigrated } from '@spark/persistence';
import { createTestDatabase, eventually, type TestDatabase, testRedisUrl, uniquePrefix } from '@spark/testing';
import { type Job, UnrecoverableError, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import { bullPrefix, JobQueues, type JobRequest } from './job-queues';
import { ConfirmOutboxJobs1764100000000 } from './outbox-confirmation.migration';
import { CreateOutbox1763800000000 } from './outbox.migration';
import { OutboxRelay } from './outbox-relay';
import { outboxInsertSql, outboxRequeueSql, outboxRows } from './outbox-rows';

const leadConfirmation: JobRequest = {
  queue: QUEUES.mail,
  name: 'lead-confirmation',
  data: {
    leadId: '7d1c2f4e-3b8a-4c6d-9e0f-1a2b3c4d5e6f',
    email: 'ok@example.com',
    role: 'client',
    interest: null,
    submission: signedLeadSubmission(developmentSigningKeys(), { email: 'ok@example.com', role: 'client' }),
  },
};

describe('the outbox with a payload no worker could run', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let redis: Redis;
  let jobs: JobQueues;
  let relay: OutboxRelay;
  let redisUrl: string;
  const busPrefix = uniquePrefix('relay');

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await openMigrated({
      url: database.url,
      schema: 'relaytest',
      migrations: [CreateOutbox1763800000000, ConfirmOutboxJobs1764100000000],
      applicationName: 'relay-test',
    });
    redisUrl = await testRedisUrl();
    redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
    jobs = new JobQueues(redis, busPrefix, developmentSigningKeys());
    relay = new OutboxRelay(dataSource, 'relaytest', jobs, createLogger('relay-test', 'silent'));
  });
  afterAll(async () => {
    await jobs.close();
    redis.disconnect();
    await dataSource.destroy();
    await database.drop();
  });

  it('is refused when it is written, before the state it announces is stored', () => {
    const malformed = { ...leadConfirmation, data: { email: 'not an address' } } as unknown as JobRequest;
    expect(() => outboxRows([malformed])).toThrow();
  });

  it('is set aside with its reason by the relay, and the rows behind it are dispatched', async () => {
    // A row from before payloads were checked on write, or edited by hand.
    await dataSource.query(
      `INSERT INTO relaytest.outbox (id, queue, job_name, payload) VALUES (gen_random_uuid(), 'mail', 'lead-confirmation', '{"email": 42}')`,
    );
    await dataSource.query(outboxInsertSql('relaytest', 1), outboxRows([leadConfirmation]));

    expect(await relay.dispatchPending()).toBe(2);
    expect(await relay.dispatchPending()).toBe(0);
    const rows: { payload: { email: unknown }; rejected_reason: string | null; id: string }[] = await dataSource.query(
      `SELECT id, payload, rejected_reason FROM relaytest.outbox ORDER BY created_at`,
    );
    const [refused, dispatched] = [rows.find((row) => row.payload.email === 42), rows.find((row) => row.payload.email === 'ok@example.com')];
    expect(refused?.rejected_reason).toContain('email');
    expect(dispatched?.rejected_reason).toBeNull();
    expect(await jobs.queue(QUEUES.mail).getJob(dispatched?.id ?? '')).toBeDefined();
    expect(await jobs.queue(QUEUES.mail).getJob(refused?.id ?? '')).toBeUndefined();
  });

  it('dates a job from when its row was written, also when it is dispatched again after Redis lost it', async () => {
    const row = outboxRows([leadConfirmation]);
    const [id] = row[0];
    await dataSource.query(outboxInsertSql('relaytest', 1), row);
    // An UPDATE answers [rows, count] through TypeORM.
    const [[{ written }]]: [{ written: Date }[]] = await dataSource.query(
      `UPDATE relaytest.outbox SET created_at = date_trunc('milliseconds', now() - interval '1 hour') WHERE id = $1 RETURNING created_at AS written`,
      [id],
    );
    // The notifier reads the job's date as when its e-mail was queued: one written before an erasure stays unsent.
    const jobDate = async () => (await jobs.queue(QUEUES.mail).getJob(id))?.timestamp;
    while ((await relay.dispatchPending()) > 0);
    expect(await jobDate()).toBe(written.getTime());

    await jobs.queue(QUEUES.mail).remove(id);
    expect(await relay.reconcile()).toBe(1);
    while ((await relay.dispatchPending()) > 0);
    expect(await jobDate()).toBe(written.getTime());
  });

  it('finishes a walk over more unfinished jobs than fit in a batch, though each batch was dispatched at one moment', async () => {
    const walker = new OutboxRelay(dataSource, 'relaytest', jobs, createLogger('relay-test', 'silent'), { batchSize: 10 });
    await dataSource.query(outboxInsertSql('relaytest', 1), outboxRows(Array.from({ length: 30 }, () => leadConfirmation)));
    while ((await walker.dispatchPending()) === 10);
    expect(await walker.reconcile()).toBe(0);
  }, 10_000);

  it('walks a long backlog of unfinished jobs a few batches per pass, resuming where it stopped, and still finds a lost job', async () => {
    const walker = new OutboxRelay(dataSource, 'relaytest', jobs, createLogger('relay-test', 'silent'), { batchSize: 10 });
    await dataSource.query(outboxInsertSql('relaytest', 1), outboxRows(Array.from({ length: 60 }, () => leadConfirmation)));
    while ((await walker.dispatchPending()) === 10);
    // No worker runs: every job waits, so every dispatched row stays unconfirmed. The last one's job is lost.
    const [last]: { id: string }[] = await dataSource.query(
      `SELECT id FROM relaytest.outbox WHERE dispatched_at IS NOT NULL AND confirmed_at IS NULL ORDER BY dispatched_at DESC, id DESC LIMIT 1`,
    );
    await jobs.queue(QUEUES.mail).remove(last?.id ?? '');

    expect(await walker.reconcileStep()).toEqual({ lost: 0, walked: false });
    expect(await jobs.queue(QUEUES.mail).getJob(last?.id ?? '')).toBeUndefined();
    expect(await walker.reconcileStep()).toEqual({ lost: 1, walked: true });
    // Found lost, it is dispatched again by the pass the step asked for.
    await eventually(() => jobs.queue(QUEUES.mail).getJob(last?.id ?? ''), 10_000, 'the lost job dispatched again');
    await walker.stop();
  });

  it('adds a job queued again under its own id only when Redis lost it: one waiting for a retry or failed for good stays as it was', async () => {
    const erase = (): JobRequest => ({ queue: QUEUES.deletionLeads, name: 'erase-account', data: { deletionId: randomUUID() } });
    const rows = outboxRows([erase(), erase(), erase()]);
    const [[retrying = '', failed = '', lost = '']] = rows;
    await dataSource.query(outboxInsertSql('relaytest', 1), rows);
    while ((await relay.dispatchPending()) > 0);
    // A worker that fails one job for good and the others for now, each then waiting for its retry.
    const queue = jobs.queue(QUEUES.deletionLeads);
    const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
    const worker = new Worker(
      QUEUES.deletionLeads,
      async (job: Job) => {
        throw job.id === failed ? new UnrecoverableError('the bucket is misconfigured') : new Error('storage is down');
      },
      { connection, prefix: bullPrefix(busPrefix) },
    );
    await eventually(async () => (await queue.getJobState(failed)) === 'failed' && (await queue.getJobState(retrying)) === 'delayed', 10_000, 'the failures');
    await worker.close();
    connection.disconnect();
    await eventually(async () => (await queue.getJobState(retrying)) === 'delayed', 10_000, 'the retry to wait');
    // Redis lost one job, and the outbox its row (pruned as old).
    await queue.remove(lost);
    await dataSource.query(`DELETE FROM relaytest.outbox WHERE id = $1`, [lost]);
    const before = await Promise.all([retrying, failed].map((id) => queue.getJob(id)));

    await dataSource.query(outboxRequeueSql('relaytest', 1), rows);
    expect(await relay.dispatchPending()).toBe(3);

    const after = await Promise.all([retrying, failed].map((id) => queue.getJob(id)));
    const seen = (job: Job | undefined) => job && { attemptsMade: job.attemptsMade, timestamp: job.timestamp, failedReason: job.failedReason };
    expect(after.map(seen)).toEqual(before.map(seen));
    expect(await Promise.all([retrying, failed, lost].map((id) => queue.getJobState(id)))).toEqual(['delayed', 'failed', 'waiting']);
    // The failed job stays finished for the outbox; the others are checked until they finish.
    await relay.reconcile();
    const confirmed: { id: string }[] = await dataSource.query(`SELECT id FROM relaytest.outbox WHERE id = ANY($1::uuid[]) AND confirmed_at IS NOT NULL`, [
      rows[0],
    ]);
    expect(confirmed.map(({ id }) => id)).toEqual([failed]);
  });
});
