import { type DeletionSubject, deletionQueues, type ErasedPart, type QueueName } from '@spark/contracts';
import { DomainError } from '@spark/errors';
import { bullPrefix, closeWorker, deleteOutboxRowsAboutSql, type JobHandlers, maxStalledCountOf, runJob, WORKER_METRICS } from '@spark/jobs';
import { runWithCorrelationId } from '@spark/logging';
import { inUnitOfWork, type ServiceDataSource } from '@spark/persistence';
import { type Job, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { AppInfrastructure } from './boot-app';

/** What one service erases of a deleted account. */
export interface AccountEraser {
  /**
   * Deletes or anonymises every row (through the service's data source, inside one transaction) and every stored
   * object about the subject. Runs again after any failure, so each step must be harmless to repeat. The transaction
   * commits only once `erase` has returned, S3 included: a note of the erasure that writes racing it must see is
   * committed first on its own (`erasedUsers(…).markErased`), or taken under a lock those writes take too.
   */
  erase(subject: DeletionSubject): Promise<void>;
  close?(): Promise<void> | void;
}

/** A running part's erasure: the queue it works, and what stops it. */
export interface AccountErasureWorker {
  queue: QueueName;
  close(): Promise<void>;
}

export interface AccountErasure {
  part: ErasedPart;
  eraser: AccountEraser;
  /** The schema whose outbox is cleared of the subject's jobs too (sent or not: nobody is left to receive them). */
  outboxSchema?: string;
}

/** One run of a part's erasure, as its queue's job runs it: the eraser, then the outbox's jobs about the subject. */
export async function eraseAccountPart(
  { eraser, outboxSchema }: Pick<AccountErasure, 'eraser' | 'outboxSchema'>,
  subject: DeletionSubject,
  dataSource: ServiceDataSource,
): Promise<void> {
  await inUnitOfWork(dataSource, async () => {
    await eraser.erase(subject);
    if (outboxSchema) await dataSource.query(deleteOutboxRowsAboutSql(outboxSchema), [subject.userId, subject.email]);
  });
}

/**
 * Consumes the part's `account-deletion-<part>` queue: looks the deletion's subject up at the auth-service, erases,
 * then reports the part done. A service that was down when the deletion was confirmed finds the job waiting when it
 * starts; a deletion already complete (a repeated job) is acknowledged without work. Returns the queue it works, for
 * its process to count in `bullmq_jobs`. See docs/data-rights.md.
 */
export function startAccountErasure(
  { part, eraser, outboxSchema }: AccountErasure,
  { config, dataSource, logger, bus }: Pick<AppInfrastructure, 'config' | 'dataSource' | 'logger' | 'bus'>,
): AccountErasureWorker {
  const queue = deletionQueues[part];
  const handlers: JobHandlers<typeof queue> = {
    'erase-account': async ({ deletionId }) => {
      const subject = await bus.request('auth.deletion-subject', { deletionId }).catch((error: unknown) => {
        if (error instanceof DomainError && error.code === 'NOT_FOUND') return undefined;
        throw error;
      });
      if (!subject) {
        logger.info({ deletionId, part }, 'account deletion already complete; nothing to erase');
        return;
      }
      await eraseAccountPart({ eraser, outboxSchema }, subject, dataSource);
      const { completed } = await bus.request('auth.deletion-part-done', { deletionId, part });
      logger.info({ deletionId, part, completed }, 'account deletion part erased');
    },
  };
  const connection = new Redis(config.REDIS_URL, { maxRetriesPerRequest: null });
  const worker = new Worker(queue, (job: Job) => runWithCorrelationId(`job:${job.id ?? 'unknown'}`, () => runJob(queue, handlers, job, config.SIGNING_KEYS)), {
    connection,
    prefix: bullPrefix(config.BUS_PREFIX),
    concurrency: 2,
    maxStalledCount: maxStalledCountOf(queue),
    metrics: WORKER_METRICS,
  });
  worker.on('error', (error) => logger.warn({ err: error }, 'account erasure worker error'));
  worker.on('failed', (job, error) =>
    logger.warn({ err: error, jobId: job?.id, attemptsMade: job?.attemptsMade }, 'account erasure failed; BullMQ retries it'),
  );
  return {
    queue,
    async close() {
      await closeWorker(worker, connection);
      connection.disconnect();
      await eraser.close?.();
    },
  };
}
