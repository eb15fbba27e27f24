import type { ProgressConfig } from '@spark/config';
import { EXPORTS_PREFIX, QUEUES } from '@spark/contracts';
import { startRepeatingJob } from '@spark/jobs';
import type { Logger } from '@spark/logging';
import type { ObjectStorage } from '@spark/storage';
import type { DataSource } from 'typeorm';

const SWEEP_EVERY_MS = 60 * 60 * 1000;
// A link e-mailed at the last moment still works to its end, and a download begun then has time to finish.
const KEPT_PAST_LINK_MS = 24 * 60 * 60 * 1000;

/**
 * Forgets the exports made before `cutoff` (so no page hands out a link to them) and deletes their archives, and any
 * archive an export that never finished left behind. Each archive is a full copy of a client's files, outside their
 * storage quota: kept for good, the archives of repeated exports would pile up without end.
 */
export async function removeExportsMadeBefore(cutoff: Date, { dataSource, storage }: { dataSource: DataSource; storage: ObjectStorage }) {
  // A DELETE answers [rows, count] through TypeORM.
  const [forgotten]: [{ status: string }[], number] = await dataSource.query(
    `DELETE FROM progress.data_exports WHERE coalesce(ready_at, created_at) < $1 RETURNING status`,
    [cutoff],
  );
  const archives = await storage.deleteOlderThan(EXPORTS_PREFIX, cutoff);
  return { exports: forgotten.length, neverFinished: forgotten.filter((row) => row.status !== 'ready').length, archives };
}

/** Once an hour on one replica, removes the exports whose e-mailed link expired a day ago or more. */
export function startExportSweep(deps: { config: ProgressConfig; dataSource: DataSource; storage: ObjectStorage; logger: Logger }) {
  const { config, logger } = deps;
  return startRepeatingJob({
    redisUrl: config.REDIS_URL,
    busPrefix: config.BUS_PREFIX,
    queue: QUEUES.exportSweep,
    schedulerId: 'expired-export-sweep',
    everyMs: SWEEP_EVERY_MS,
    jobName: 'sweep-expired-exports',
    logger,
    handlers: {
      'sweep-expired-exports': async () => {
        const removed = await removeExportsMadeBefore(new Date(Date.now() - config.EXPORT_LINK_SECONDS * 1000 - KEPT_PAST_LINK_MS), deps);
        if (removed.exports > 0 || removed.archives > 0) logger.info(removed, 'expired data exports removed');
        // Their jobs failed for good (the queue dashboard keeps them): those clients never got the e-mail.
        if (removed.neverFinished > 0) logger.warn({ neverFinished: removed.neverFinished }, 'removed data exports that were never finished');
      },
    },
  });
}
