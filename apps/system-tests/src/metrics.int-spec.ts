import { randomUUID } from 'node:crypto';
import { developmentSigningKeys } from '@spark/config';
import { QUEUES } from '@spark/contracts';
import { jobOptionsOf, JobQueues } from '@spark/jobs';
import { createLogger } from '@spark/logging';
import { RedisStreamsClient } from '@spark/messaging';
import { startService } from '@spark/service-runtime';
import { Redis } from 'ioredis';
import { createTestDatabase, eventually, freePort, type SmtpSink, startSmtpSink, type TestDatabase, testRedisUrl, uniquePrefix } from '@spark/testing';
import { gatewayMetrics } from '../../gateway/src/main';
import { leadsService } from '../../leads-service/src/service';
import { startNotifier } from '../../notifier/src/main';
import { leadCommand } from './lead-command';

/** One sample of `name` whose labels include every one of `labels`, from a Prometheus text page. */
function sample(page: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of page.split('\n')) {
    const match = /^([a-z_:]+)\{([^}]*)\} (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const has = Object.entries(labels).every(([key, value]) => match[2]?.includes(`${key}="${value}"`));
    if (has) return Number(match[3]);
  }
  return undefined;
}

describe('metrics on the internal port of a service and of the notifier', () => {
  let database: TestDatabase;
  let smtp: SmtpSink;
  let client: RedisStreamsClient;
  let jobs: JobQueues;
  const gateway = gatewayMetrics();
  const stops: (() => Promise<void>)[] = [];
  const ports = { leads: 0, notifier: 0 };
  const scrape = async (port: number) => (await fetch(`http://127.0.0.1:${port}/metrics`)).text();

  beforeAll(async () => {
    database = await createTestDatabase();
    smtp = await startSmtpSink();
    ports.leads = await freePort();
    ports.notifier = await freePort();
    const env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: database.url,
      REDIS_URL: await testRedisUrl(),
      BUS_PREFIX: uniquePrefix('metrics'),
      OUTBOX_POLL_MS: '200',
    };
    stops.push(await startService({ ...leadsService, env: { ...env, HEALTH_PORT: String(ports.leads) } }, false));
    stops.push(await startNotifier({ ...env, SMTP_URL: smtp.url, HEALTH_PORT: String(ports.notifier) }));
    client = new RedisStreamsClient({
      app: 'gateway',
      signingKeys: developmentSigningKeys(),
      redisUrl: env.REDIS_URL,
      prefix: env.BUS_PREFIX,
      timeoutMs: 10_000,
      logger: createLogger('metrics-test', 'silent'),
      observer: gateway.busClient,
    });
    await client.connect();
    jobs = new JobQueues(new Redis(env.REDIS_URL, { maxRetriesPerRequest: null }), env.BUS_PREFIX);
  });
  afterAll(async () => {
    await jobs.close();
    jobs.connection.disconnect();
    await client.close();
    for (const stop of stops.reverse()) await stop();
    await smtp.close();
    await database.drop();
  });

  it('counts bus requests by pattern and outcome, the outbox lag and the mail queue by state', async () => {
    await client.request('leads.create', leadCommand('metrics@example.com'));
    await client.request('leads.create', leadCommand('metrics@example.com')).catch(() => undefined);
    const leads = await scrape(ports.leads);
    expect(sample(leads, 'bus_request_duration_seconds_count', { app: 'leads-service', pattern: 'leads.create', outcome: 'ok' })).toBe(1);
    expect(sample(leads, 'bus_request_duration_seconds_count', { pattern: 'leads.create', outcome: 'error' })).toBe(1);
    expect(sample(leads, 'outbox_oldest_pending_seconds', { schema: 'leads' })).toBeGreaterThanOrEqual(0);
    expect(leads).toMatch(/^process_cpu_seconds_total\{app="leads-service"\} /m);
    // The same two requests as the caller (the gateway's bus client) waited for them, answer included.
    const caller = await gateway.registry.metrics();
    expect(sample(caller, 'bus_client_request_duration_seconds_count', { app: 'gateway', pattern: 'leads.create', outcome: 'ok' })).toBe(1);
    expect(sample(caller, 'bus_client_request_duration_seconds_count', { pattern: 'leads.create', outcome: 'error' })).toBe(1);
    expect(sample(caller, 'bus_client_request_duration_seconds_sum', { pattern: 'leads.create', outcome: 'ok' })).toBeGreaterThan(0);

    await smtp.waitFor(2);
    const completed = await eventually(
      async () => {
        const count = sample(await scrape(ports.notifier), 'bullmq_jobs', { app: 'notifier', queue: 'mail', state: 'completed' });
        return count === 2 ? count : undefined;
      },
      10_000,
      'two completed mail jobs on the notifier page',
    );
    expect(completed).toBe(2);
    const notifier = await scrape(ports.notifier);
    expect(sample(notifier, 'bullmq_jobs', { queue: 'mail', state: 'failed' })).toBe(0);
    // BullMQ turns its count into a per-minute point when a minute has passed: present from the start, counted later.
    expect(sample(notifier, 'bullmq_jobs_finished_per_minute', { queue: 'mail', outcome: 'completed' })).toBeGreaterThanOrEqual(0);
    expect(sample(notifier, 'bullmq_jobs_finished_per_minute', { queue: 'mail', outcome: 'failed' })).toBe(0);
  });

  it('keeps a deletion job that failed for good past the week other failed jobs are kept, and counts it per queue', async () => {
    const queue = jobs.queue(QUEUES.deletionLeads);
    // With the options the outbox gives it, but unsigned: the leads-service fails it for good on its first attempt.
    const failForGood = async (jobId: string) => {
      await queue.add('erase-account', { deletionId: randomUUID() }, { ...jobOptionsOf(QUEUES.deletionLeads), jobId });
      await eventually(async () => (await queue.getJobState(jobId)) === 'failed', 10_000, `deletion job ${jobId} to fail`);
    };
    const old = randomUUID();
    await failForGood(old);
    // Dated before the week other queues keep failed jobs: BullMQ trims its failed list by age when a job with one fails.
    await jobs.connection.zadd(queue.toKey('failed'), 'XX', Date.now() - 8 * 24 * 3600 * 1000, old);
    await failForGood(randomUUID());

    expect(await queue.getJobState(old)).toBe('failed');
    expect((await queue.getJob(old))?.opts.removeOnFail).toBe(false);
    expect(sample(await scrape(ports.leads), 'bullmq_jobs', { app: 'leads-service', queue: QUEUES.deletionLeads, state: 'failed' })).toBe(2);
    expect(sample(await scrape(ports.notifier), 'bullmq_jobs', { app: 'notifier', queue: QUEUES.deletionNotifier, state: 'failed' })).toBe(0);
  });
});
