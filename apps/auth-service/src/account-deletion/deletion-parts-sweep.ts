import type { AuthConfig } from '@spark/config';
import { QUEUES } from '@spark/contracts';
import { type OutboxRelay, startRepeatingJob } from '@spark/jobs';
import type { Logger } from '@spark/logging';
import type { AccountDeletionRepository } from './account-deletion.repository';

const SWEEP_EVERY_MS = 60 * 60 * 1000;
// A job handed to BullMQ more recently is still followed by the outbox relay, which adds it again if Redis loses it.
const QUEUED_AGAIN_AFTER_MS = 60 * 60 * 1000;

/**
 * On one replica, each period, queues again the erase job of every account deletion part still open. A part's job that
 * failed for good lives only in Redis, and the outbox counts it finished: once Redis loses its data, only the deletion's
 * own parts still say that the part is left to erase. Each part's job keeps its id, so a job still in Redis is not
 * doubled, and one failed for good stays on the queue dashboard for an admin to retry.
 */
export function startDeletionPartsSweep(deps: {
  config: Pick<AuthConfig, 'REDIS_URL' | 'BUS_PREFIX'>;
  deletions: Pick<AccountDeletionRepository, 'requeueOpenParts'>;
  outbox: Pick<OutboxRelay, 'kick'>;
  logger: Logger;
}) {
  const { config, deletions, outbox, logger } = deps;
  return startRepeatingJob({
    redisUrl: config.REDIS_URL,
    busPrefix: config.BUS_PREFIX,
    queue: QUEUES.deletionPartsSweep,
    schedulerId: 'open-deletion-parts-sweep',
    everyMs: SWEEP_EVERY_MS,
    jobName: 'resend-open-deletion-parts',
    logger,
    handlers: {
      'resend-open-deletion-parts': async () => {
        const queued = await deletions.requeueOpenParts(QUEUED_AGAIN_AFTER_MS);
        if (queued === 0) return;
        outbox.kick();
        logger.info({ queued }, 'open account deletion parts queued again');
      },
    },
  });
}
