import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createLeadResponseSchema } from '@spark/contracts';
import { createLogger } from '@spark/logging';
import { RedisStreamsClient, requestStreamKey } from '@spark/messaging';
import { createTestDatabase, eventually, type TestDatabase, testRedisUrl, uniquePrefix } from '@spark/testing';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import { startReplica } from './spawned-app';

/** Deadlines as a caller means them: a 503 says "not done", and no host's clock decides what is late. */
describe('request deadlines between processes', () => {
  let database: TestDatabase;
  let db: Client;
  let redis: Redis;
  let client: RedisStreamsClient;
  const children: ChildProcess[] = [];
  const env: NodeJS.ProcessEnv = { BUS_PREFIX: uniquePrefix('deadline') };
  const leadsOf = async (email: string) => Number((await db.query(`SELECT count(*)::int AS n FROM leads.leads WHERE email = $1`, [email])).rows[0].n);
  const replica = async (extra: NodeJS.ProcessEnv = {}) => {
    const child = await startReplica('leads-service/src/main', { ...env, ...extra });
    children.push(child);
    return child;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    env.DATABASE_URL = database.url;
    env.REDIS_URL = await testRedisUrl();
    db = new Client({ connectionString: database.url });
    await db.connect();
    redis = new Redis(env.REDIS_URL);
    client = new RedisStreamsClient({ redisUrl: env.REDIS_URL, prefix: env.BUS_PREFIX, timeoutMs: 5_000, logger: createLogger('deadline-test', 'silent') });
    await client.connect();
  });
  // Each case has its own replica: one left running would answer the next case's requests.
  afterEach(async () => {
    for (const child of children.splice(0)) {
      child.kill('SIGKILL');
      await eventually(() => child.exitCode !== null || child.signalCode !== null, 10_000, 'the replica to exit');
    }
  });
  afterAll(async () => {
    redis.disconnect();
    await client.close();
    await db.end();
    await database.drop();
  });

  it('a submit held 8 s by a table lock answers 503 and commits nothing, even after the lock is gone', async () => {
    await replica();
    const lock = new Client({ connectionString: database.url });
    await lock.connect();
    await lock.query('BEGIN');
    await lock.query('LOCK TABLE leads.leads IN EXCLUSIVE MODE');
    const started = Date.now();
    const answer = client.request('leads.create', { email: 'held@example.com' });
    await expect(answer).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 8_000 - (Date.now() - started))));
    await lock.query('COMMIT');
    await lock.end();
    // Idle: the request is answered and acknowledged, so nothing of it can still commit.
    const stream = requestStreamKey(env.BUS_PREFIX ?? '', 'leads');
    await eventually(async () => ((await redis.xpending(stream, 'leads')) as [number])[0] === 0, 30_000, 'the request to be acknowledged');
    expect(await leadsOf('held@example.com')).toBe(0);
  }, 60_000);

  it('a service whose clock runs 6 s ahead of its caller still answers in time', async () => {
    await replica({ NODE_OPTIONS: `--require ${join(__dirname, 'fixtures/clock-skew.cjs')}`, CLOCK_SKEW_MS: '6000' });
    const answer = createLeadResponseSchema.parse(await client.request('leads.create', { email: 'ahead@example.com' }));
    expect(answer.lead.email).toBe('ahead@example.com');
    expect(await leadsOf('ahead@example.com')).toBe(1);
  }, 60_000);
});
