import { QUEUES } from '@spark/contracts';
import { createLogger } from '@spark/logging';
import { eventually, outlastDroppedConnections, type PrivateRedis, startPrivateRedis, uniquePrefix } from '@spark/testing';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { bullPrefix } from './job-queues';
import { startRepeatingJob } from './repeating-job';

const EVERY_MS = 1_000;
const SCHEDULER_ID = 'repeating-job-test';

/**
 * A repeating job's schedule lives only in Redis. Redis may lose its data (emptied, or restarted without
 * persistence) while the replicas that run the job keep running and never start again.
 */
describe('a repeating job after Redis lost its data', () => {
  let redis: PrivateRedis;
  let admin: Redis;
  let queue: Queue;
  const busPrefix = uniquePrefix('repeat');
  // The time each run was scheduled for, from its job id (`repeat:<scheduler>:<millis>`), in the order they ran.
  const runs: number[] = [];
  let replicas: { close(): Promise<void> }[] = [];

  const startReplica = () =>
    startRepeatingJob({
      redisUrl: redis.url,
      busPrefix,
      queue: QUEUES.reminders,
      schedulerId: SCHEDULER_ID,
      everyMs: EVERY_MS,
      jobName: 'send-due-reminders',
      logger: createLogger('repeating-job-test', 'silent'),
      handlers: {
        'send-due-reminders': async (_data, job) => {
          runs.push(Number(job.id?.split(':').pop()));
        },
      },
    });
  // A run under way when Redis lost its data may still finish afterwards: only the runs scheduled since count.
  const runsScheduledSince = async (since: number, count: number, what: string) => {
    await eventually(() => runs.filter((scheduled) => scheduled > since).length >= count, 15_000, what);
    return runs.filter((scheduled) => scheduled > since);
  };

  beforeAll(async () => {
    redis = await startPrivateRedis();
    admin = new Redis(redis.url, { maxRetriesPerRequest: null });
    queue = new Queue(QUEUES.reminders, { connection: admin, prefix: bullPrefix(busPrefix) });
    // Two replicas, as in production: each has a worker, and each could bring the schedule back.
    replicas = [startReplica(), startReplica()];
    await runsScheduledSince(0, 3, 'the first runs');
  });
  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.close()));
    await queue?.close();
    admin?.disconnect();
    await redis?.stop();
    await outlastDroppedConnections();
  });

  /** Each run once, one period after the one before: neither a run twice nor a schedule pushed later. */
  const expectOneRunPerPeriod = (scheduled: number[]) => {
    expect(new Set(scheduled).size).toBe(scheduled.length);
    for (let i = 1; i < scheduled.length; i += 1) expect(scheduled[i] - scheduled[i - 1]).toBe(EVERY_MS);
  };

  it('runs once a period on two replicas while Redis keeps its data', () => {
    expectOneRunPerPeriod(runs);
  });

  it('runs again once Redis was emptied, on one schedule for both replicas', async () => {
    // No connection drops: nothing but the data tells the replicas that Redis lost it.
    const flushedAt = Date.now();
    await admin.flushall();
    const since = await runsScheduledSince(flushedAt, 3, 'runs after the flush');
    expect(await queue.getJobSchedulersCount()).toBe(1);
    expectOneRunPerPeriod(since);
  }, 30_000);

  it('runs again once Redis restarted empty', async () => {
    const stoppedAt = Date.now();
    await redis.stop();
    await redis.start();
    const since = await runsScheduledSince(stoppedAt, 3, 'runs after the restart');
    expect(await queue.getJobSchedulersCount()).toBe(1);
    expectOneRunPerPeriod(since);
  }, 30_000);
});
