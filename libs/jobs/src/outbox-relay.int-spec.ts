import { QUEUES } from '@spark/contracts';
import { createLogger } from '@spark/logging';
import { createServiceDataSource, initializeWithMigrations } from '@spark/persistence';
import { createTestDatabase, type TestDatabase, testRedisUrl, uniquePrefix } from '@spark/testing';
import { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import { JobQueues, type JobRequest } from './job-queues';
import { ConfirmOutboxJobs1764100000000 } from './outbox-confirmation.migration';
import { CreateOutbox1763800000000 } from './outbox.migration';
import { OutboxRelay } from './outbox-relay';
import { outboxInsertSql, outboxRows } from './outbox-rows';

const leadConfirmation: JobRequest = {
  queue: QUEUES.mail,
  name: 'lead-confirmation',
  data: { leadId: '7d1c2f4e-3b8a-4c6d-9e0f-1a2b3c4d5e6f', email: 'ok@example.com', role: 'client' },
};

describe('the outbox with a payload no worker could run', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let redis: Redis;
  let jobs: JobQueues;
  let relay: OutboxRelay;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await initializeWithMigrations(
      createServiceDataSource({
        url: database.url,
        schema: 'relaytest',
        entities: [],
        migrations: [CreateOutbox1763800000000, ConfirmOutboxJobs1764100000000],
        applicationName: 'relay-test',
      }),
      'relaytest',
    );
    redis = new Redis(await testRedisUrl(), { maxRetriesPerRequest: null });
    jobs = new JobQueues(redis, uniquePrefix('relay'));
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
});
