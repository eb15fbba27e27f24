import type { JobName, QueueName } from '@spark/contracts';
import type { Logger } from '@spark/logging';
import { type Job, Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { closeWorker, unlessRedisLost } from './close-worker';
import { assertHandlersComplete, type JobHandlers, runJob, WORKER_METRICS } from './job-handlers';
import { bullPrefix } from './job-queues';

const NO_KEYS = new Map();

/** A job with a long period is not left unscheduled for that long after Redis lost its data. */
const MAX_CHECK_MS = 60_000;

export interface RepeatingJob<Q extends QueueName> {
  redisUrl: string;
  busPrefix: string;
  queue: Q;
  /** The job scheduler's id: one per repeating job, whichever replicas start it. */
  schedulerId: string;
  everyMs: number;
  /** The job each run adds (an empty payload); `handlers` must handle every job of the queue. */
  jobName: JobName<Q>;
  handlers: JobHandlers<Q>;
  logger: Logger;
}

/**
 * A job that runs every `everyMs` on one replica: a BullMQ job scheduler adds it (every replica upserts the same
 * scheduler, so there is one), and a worker of concurrency 1 on each replica takes it. A failed run is left to the
 * next one. The scheduler lives only in Redis, so each replica looks for it once a period (or `MAX_CHECK_MS`, if
 * sooner) and schedules it again when Redis has lost it.
 */
export function startRepeatingJob<Q extends QueueName>(options: RepeatingJob<Q>): { close(): Promise<void> } {
  const { queue: name, handlers, logger, schedulerId } = options;
  assertHandlersComplete(name, handlers);
  const connection = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
  const prefix = bullPrefix(options.busPrefix);
  const queue = new Queue(name, { connection, prefix });
  // Upserting an existing scheduler keeps its next run only while its period is unchanged, and replicas of two
  // releases may disagree on it: upserted on every check, they would reset each other's schedule. So it is upserted
  // once at start, which takes a new period, and afterwards only when it is gone.
  const schedule = () =>
    queue.upsertJobScheduler(schedulerId, { every: options.everyMs }, { name: options.jobName, data: {}, opts: { removeOnComplete: 100, removeOnFail: 100 } });
  const scheduleAgainIfLost = async () => {
    if (await queue.getJobScheduler(schedulerId)) return;
    // Replicas that race here leave one scheduler with one next run: an upsert of the same period keeps the run
    // another replica scheduled, or schedules the one after it when that run is already under way.
    await schedule();
    logger.warn({ schedulerId }, 'a repeating job was scheduled again: Redis had lost its schedule');
  };

  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let pass: Promise<unknown> = Promise.resolve();
  const guarded = (step: () => Promise<unknown>) =>
    step().catch((error: unknown) => {
      if (!stopped) logger.error({ err: error, schedulerId }, 'could not schedule a repeating job');
    });
  // One check at a time: while Redis is down a check waits for it, and checks must not pile up behind it.
  const checkLater = () => {
    if (stopped) return;
    timer = setTimeout(
      () => {
        pass = guarded(scheduleAgainIfLost).then(checkLater);
      },
      Math.min(options.everyMs, MAX_CHECK_MS),
    );
  };
  pass = guarded(schedule).then(checkLater);

  // The scheduler's jobs carry no signature (`SCHEDULED`): no key is needed, and any other job is refused.
  const worker = new Worker(name, (job: Job) => runJob(name, handlers, job, NO_KEYS), { connection, prefix, concurrency: 1, metrics: WORKER_METRICS });
  worker.on('error', (error) => logger.warn({ err: error, queue: name }, 'repeating job worker error'));
  worker.on('failed', (_job, error) => logger.warn({ err: error, queue: name }, 'repeating job failed; the next run retries'));
  return {
    async close() {
      stopped = true;
      clearTimeout(timer);
      await unlessRedisLost(pass, connection);
      await closeWorker(worker, connection);
      await queue.close();
      connection.disconnect();
    },
  };
}
