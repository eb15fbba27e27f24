import type { ProgressConfig } from '@spark/config';
import { QUEUES, SPARK_UPLOAD_GRANT_SECONDS } from '@spark/contracts';
import { assertHandlersComplete, bullPrefix, type JobHandlers, runJob } from '@spark/jobs';
import type { Logger } from '@spark/logging';
import type { SparkMedia } from '@spark/media';
import { type Job, Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';

const SWEEP_EVERY_MS = 60 * 60 * 1000;
// An upload is only claimed within its grant's lifetime plus one capture's processing; twice the grant is safe.
const UNCLAIMED_AFTER_MS = 2 * SPARK_UPLOAD_GRANT_SECONDS * 1000;

/**
 * Deletes spark uploads that were granted and put in storage but never recorded (the browser lost its connection
 * between the two and uploaded again on retry): a BullMQ job scheduler adds one sweep job an hour, whichever
 * replicas are running, and one worker takes it.
 */
export function startUploadSweep(deps: { config: ProgressConfig; media: SparkMedia; logger: Logger }) {
  const { config, media, logger } = deps;
  const connection = new Redis(config.REDIS_URL, { maxRetriesPerRequest: null });
  const prefix = bullPrefix(config.BUS_PREFIX);
  const queue = new Queue(QUEUES.sparkUploads, { connection, prefix });
  queue
    .upsertJobScheduler(
      'unclaimed-upload-sweep',
      { every: SWEEP_EVERY_MS },
      { name: 'sweep-unclaimed-uploads', data: {}, opts: { removeOnComplete: 100, removeOnFail: 100 } },
    )
    .catch((error: unknown) => logger.error({ err: error }, 'could not schedule the unclaimed upload sweep'));

  const handlers: JobHandlers<typeof QUEUES.sparkUploads> = {
    'sweep-unclaimed-uploads': async () => {
      const deleted = await media.sweepUnclaimed(new Date(Date.now() - UNCLAIMED_AFTER_MS));
      if (deleted > 0) logger.info({ deleted }, 'unclaimed spark uploads deleted');
    },
  };
  assertHandlersComplete(QUEUES.sparkUploads, handlers);
  const worker = new Worker(QUEUES.sparkUploads, (job: Job) => runJob(QUEUES.sparkUploads, handlers, job), { connection, prefix, concurrency: 1 });
  worker.on('error', (error) => logger.warn({ err: error }, 'upload sweep error'));
  worker.on('failed', (_job, error) => logger.warn({ err: error }, 'upload sweep failed; the next run retries'));
  return {
    async close() {
      await worker.close();
      await queue.close();
      connection.disconnect();
    },
  };
}
