import type { ProgressConfig } from '@spark/config';
import { type ExportGrant, exportPrefix, QUEUES } from '@spark/contracts';
import {
  assertHandlersComplete,
  bullPrefix,
  cappedBackoffStrategy,
  closeWorker,
  type JobHandlers,
  MailSealer,
  maxStalledCountOf,
  outboxInsertForSql,
  outboxRowsFor,
  runJob,
  WORKER_METRICS,
} from '@spark/jobs';
import { type Logger, runWithCorrelationId } from '@spark/logging';
import type { ServiceBus } from '@spark/messaging';
import { ObjectStorage } from '@spark/storage';
import { type Job, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import { clientArchive, type OtherServicesData } from './client-archive';
import { ExportRepository } from './export.repository';

export interface ExportWorkerDependencies {
  config: ProgressConfig;
  dataSource: DataSource;
  logger: Logger;
  bus: ServiceBus;
  /** Asks the outbox relay to send the link e-mail now rather than at its next poll. */
  kickOutbox: () => void;
}

/**
 * What the auth-, ditl-, leads- and investor-service hold about the client, each handed over only for the export the
 * gateway's grant names. The Days in the Life are asked for one at a time as the archive takes them.
 */
async function otherServicesData(bus: ServiceBus, { userId, grant }: { userId: string; grant: ExportGrant }): Promise<OtherServicesData> {
  const [account, ditl, lead, investor] = await Promise.all([
    bus.request('auth.export-account', { userId, grant }),
    bus.request('ditl.export-presentation', { userId, grant }),
    bus.request('leads.export-lead', { userId, grant }),
    bus.request('investor.export-investor', { userId, grant }),
  ]);
  return { account, ditl, lead, investor, olderDitl: (before) => bus.request('ditl.export-presentation', { userId, grant, before }) };
}

/**
 * The BullMQ consumer of the `export` queue. Each job streams the client's archive from PostgreSQL and
 * S3 into one S3 object, then queues the e-mail with a link signed for EXPORT_LINK_SECONDS through the
 * outbox. A job retried after a crash builds and uploads the archive again under the same key. A service it reads,
 * S3 or PostgreSQL away fails the attempt; the job is retried for hours (`CAPPED_BACKOFFS`), since the client was
 * told the link is on its way.
 */
export function startExportWorker(deps: ExportWorkerDependencies): { worker: Worker; close(): Promise<void> } {
  const { config, dataSource, logger, bus } = deps;
  const storage = new ObjectStorage(config);
  const repository = new ExportRepository(dataSource);
  const sealer = new MailSealer(config.MAIL_SEAL_PUBLIC_KEY);
  const handlers: JobHandlers<'export'> = {
    'export-client-data': async (data, job) => {
      // One archive and one e-mail per request, however often its job runs: BullMQ retrying after the e-mail was
      // queued, or the signed job added again after it left Redis. A request erased with its account is gone.
      if ((await requestStatus(dataSource, data.exportId)) !== 'preparing') {
        logger.info({ userId: data.userId, exportId: data.exportId }, 'data export already sent, or no longer requested; nothing to do');
        return;
      }
      const otherServices = await otherServicesData(bus, data);
      const key = exportKey(data.userId, job.id ?? 'unknown');
      const archive = clientArchive(data.userId, { repository, otherServices, openFile: (fileKey) => storage.getStream(fileKey) });
      await storage.put({ key, body: archive, contentType: 'application/zip' });
      const expiresAt = new Date(Date.now() + config.EXPORT_LINK_SECONDS * 1000).toISOString();
      const downloadUrl = await storage.signedGetUrl(key, { expiresInSeconds: config.EXPORT_LINK_SECONDS, downloadName: 'spark-data.zip' });
      const sealed = await sealer.seal('data-export-ready', data.email, { downloadUrl });
      // Ready (the page waiting for a small export offers the download now) and its e-mail queued, together and once.
      const [{ turnedReady }] = (await dataSource.query(
        `WITH ready AS (
           UPDATE progress.data_exports SET status = 'ready', object_key = $2, ready_at = now() WHERE id = $1 AND status = 'preparing' RETURNING id
         ), mail AS (
           ${outboxInsertForSql('progress', 3, 'ready')}
         )
         SELECT EXISTS (SELECT 1 FROM ready) AS "turnedReady"`,
        [
          data.exportId,
          key,
          ...outboxRowsFor([
            {
              id: data.exportId,
              jobs: [{ queue: QUEUES.mail, name: 'data-export-ready', data: { userId: data.userId, email: data.email, expiresAt, sealed } }],
            },
          ]),
        ],
      )) as { turnedReady: boolean }[];
      if (!turnedReady) {
        // Another run sent it, or the account was erased while this one built it: then nothing of it may stay.
        if ((await requestStatus(dataSource, data.exportId)) === undefined) await storage.delete(key);
        logger.info({ userId: data.userId, exportId: data.exportId }, 'data export sent by another run, or no longer requested');
        return;
      }
      deps.kickOutbox();
      logger.info({ userId: data.userId, requestedBy: data.requestedBy, key }, 'data export ready');
    },
  };
  assertHandlersComplete(QUEUES.export, handlers);
  const connection = new Redis(config.REDIS_URL, { maxRetriesPerRequest: null });
  const worker = new Worker(
    QUEUES.export,
    (job: Job) => runWithCorrelationId(`job:${job.id ?? 'unknown'}`, () => runJob(QUEUES.export, handlers, job, config.SIGNING_KEYS)),
    {
      connection,
      prefix: bullPrefix(config.BUS_PREFIX),
      concurrency: config.EXPORT_CONCURRENCY,
      lockDuration: config.EXPORT_LOCK_MS,
      stalledInterval: config.EXPORT_LOCK_MS,
      maxStalledCount: maxStalledCountOf(QUEUES.export),
      settings: { backoffStrategy: cappedBackoffStrategy(QUEUES.export, exportRetryDelays(config)) },
      metrics: WORKER_METRICS,
    },
  );
  worker.on('error', (error) => logger.warn({ err: error }, 'export worker error'));
  worker.on('failed', (job, error) => logger.warn({ err: error, jobId: job?.id, attemptsMade: job?.attemptsMade }, 'data export failed; BullMQ retries it'));
  return {
    worker,
    async close() {
      await closeWorker(worker, connection);
      connection.disconnect();
      await storage.close();
    },
  };
}

const exportRetryDelays = (config: ProgressConfig) => ({ firstDelayMs: config.EXPORT_RETRY_FIRST_MS, maxDelayMs: config.EXPORT_RETRY_MAX_MS });

/** Where an export request stands; undefined once it is gone (erased with its account). */
async function requestStatus(dataSource: DataSource, exportId: string): Promise<'preparing' | 'ready' | undefined> {
  const [row] = (await dataSource.query(`SELECT status FROM progress.data_exports WHERE id = $1`, [exportId])) as { status: 'preparing' | 'ready' }[];
  return row?.status;
}

/** Under its own prefix, so a bucket lifecycle rule can expire archives a day after the link does. */
export const exportKey = (userId: string, jobId: string) => `${exportPrefix(userId)}${jobId}.zip`;
