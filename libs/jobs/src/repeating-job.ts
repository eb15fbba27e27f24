import type { JobName, QueueName } from '@spark/contracts';
import type { Logger } from '@spark/logging';
import { type Job, Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { closeWorker } from './close-worker';
import { assertHandlersComplete, type JobHandlers, runJob } from './job-handlers';
import { bullPrefix } from './job-queues';

const NO_KEYS = new Map();

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
 * next one.
 */
export function startRepeatingJob<Q extends QueueName>(options: RepeatingJob<Q>): { close(): Promise<void> } {
  const { queue: name, handlers, logger } = options;
  assertHandlersComplete(name, handlers);
  const connection = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
  const prefix = bullPrefix(options.busPrefix);
  const queue = new Queue(name, { connection, prefix });
  queue
    .upsertJobScheduler(
      options.schedulerId,
      { every: options.everyMs },
      { name: options.jobName, data: {}, opts: { removeOnComplete: 100, removeOnFail: 100 } },
    )
    .catch((error: unknown) => logger.error({ err: error, schedulerId: options.schedulerId }, 'could not schedule a repeating job'));
  // The scheduler's jobs carry no signature (`SCHEDULED`): no key is needed, and any other job is refused.
  const worker = new Worker(name, (job: Job) => runJob(name, handlers, job, NO_KEYS), { connection, prefix, concurrency: 1 });
  worker.on('error', (error) => logger.warn({ err: error, queue: name }, 'repeating job worker error'));
  worker.on('failed', (_job, error) => logger.warn({ err: error, queue: name }, 'repeating job failed; the next run retries'));
  return {
    async close() {
      await closeWorker(worker, connection);
      await queue.close();
      connection.disconnect();
    },
  };
}
