import type { ProgressConfig } from '@spark/config';
import { QUEUES, SPARK_UPLOAD_GRANT_SECONDS } from '@spark/contracts';
import { startRepeatingJob } from '@spark/jobs';
import type { Logger } from '@spark/logging';
import type { SparkMedia } from '@spark/media';
import type { DataSource } from 'typeorm';
import { forgetOldErasures } from '../erasure/progress-erasure';

const SWEEP_EVERY_MS = 60 * 60 * 1000;
// An upload is only claimed within its grant's lifetime plus one capture's processing; twice the grant is safe.
const UNCLAIMED_AFTER_MS = 2 * SPARK_UPLOAD_GRANT_SECONDS * 1000;

/**
 * Deletes spark uploads that were granted and put in storage but never recorded (the browser lost its connection
 * between the two and uploaded again on retry), once an hour on one replica; and forgets the clients erased over a day
 * ago, whom a capture under way at their erasure could have started again until then.
 */
export function startUploadSweep({ config, media, dataSource, logger }: { config: ProgressConfig; media: SparkMedia; dataSource: DataSource; logger: Logger }) {
  return startRepeatingJob({
    redisUrl: config.REDIS_URL,
    busPrefix: config.BUS_PREFIX,
    queue: QUEUES.sparkUploads,
    schedulerId: 'unclaimed-upload-sweep',
    everyMs: SWEEP_EVERY_MS,
    jobName: 'sweep-unclaimed-uploads',
    logger,
    handlers: {
      'sweep-unclaimed-uploads': async () => {
        const deleted = await media.sweepUnclaimed(new Date(Date.now() - UNCLAIMED_AFTER_MS));
        if (deleted > 0) logger.info({ deleted }, 'unclaimed spark uploads deleted');
        await forgetOldErasures(dataSource);
      },
    },
  });
}
