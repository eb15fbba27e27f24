import type { ProgressConfig } from '@spark/config';
import { QUEUES } from '@spark/contracts';
import { assertHandlersComplete, bullPrefix, closeWorker, type JobHandlers, MailSealer, outboxInsertSql, outboxRows, runJob } from '@spark/jobs';
import { type Logger, runWithCorrelationId } from '@spark/logging';
import { RedisStreamsClient, ServiceBus } from '@spark/messaging';
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
  /** Asks the outbox relay to send the link e-mail now rather than at its next poll. */
  kickOutbox: () => void;
}

/** The account (auth-service) and the Day in the Life (ditl-service), asked over the bus like any other caller would. */
async function otherServicesData(bus: ServiceBus, userId: string): Promise<OtherServicesData> {
  const [account, current] = await Promise.all([bus.request('auth.get-user', { userId }), bus.request('ditl.current', { userId })]);
  const generation = current.generation;
  const html =
    generation?.status === 'completed'
      ? (await bus.request('ditl.get-presentation', { generationId: generation.generationId, reader: { userId, role: 'client' } })).html
      : null;
  return { account, ditl: { generation, html } };
}

/**
 * The BullMQ consumer of the `export` queue. Each job streams the client's archive from PostgreSQL and
 * S3 into one S3 object, then queues the e-mail with a link signed for EXPORT_LINK_SECONDS through the
 * outbox. A job retried after a crash builds and uploads the archive again under the same key.
 */
export function startExportWorker(deps: ExportWorkerDependencies): { worker: Worker; close(): Promise<void> } {
  const { config, dataSource, logger } = deps;
  const storage = new ObjectStorage(config);
  const repository = new ExportRepository(dataSource);
  const sealer = new MailSealer(config.MAIL_SEAL_PUBLIC_KEY);
  const busClient = new RedisStreamsClient({
    redisUrl: config.REDIS_URL,
    prefix: config.BUS_PREFIX,
    app: 'progress',
    timeoutMs: config.BUS_TIMEOUT_MS,
    logger,
    signingKeys: config.SIGNING_KEYS,
  });
  const bus = new ServiceBus(busClient);
  const handlers: JobHandlers<'export'> = {
    'export-client-data': async (data, job) => {
      const otherServices = await otherServicesData(bus, data.userId);
      const key = exportKey(data.userId, job.id ?? 'unknown');
      const archive = clientArchive(data.userId, { repository, otherServices, openFile: (fileKey) => storage.getStream(fileKey) });
      await storage.put({ key, body: archive, contentType: 'application/zip' });
      const expiresAt = new Date(Date.now() + config.EXPORT_LINK_SECONDS * 1000).toISOString();
      const downloadUrl = await storage.signedGetUrl(key, { expiresInSeconds: config.EXPORT_LINK_SECONDS, downloadName: 'spark-data.zip' });
      const sealed = await sealer.seal('data-export-ready', data.email, { downloadUrl });
      await dataSource.query(
        outboxInsertSql('progress', 1),
        outboxRows([{ queue: QUEUES.mail, name: 'data-export-ready', data: { email: data.email, expiresAt, sealed } }]),
      );
      // The page waiting for it (a small export) offers the download now.
      if (data.exportId)
        await dataSource.query(`UPDATE progress.data_exports SET status = 'ready', object_key = $2, ready_at = now() WHERE id = $1`, [data.exportId, key]);
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
      maxStalledCount: 2,
    },
  );
  worker.on('error', (error) => logger.warn({ err: error }, 'export worker error'));
  worker.on('failed', (job, error) => logger.warn({ err: error, jobId: job?.id, attemptsMade: job?.attemptsMade }, 'data export failed; BullMQ retries it'));
  return {
    worker,
    async close() {
      await closeWorker(worker, connection);
      connection.disconnect();
      await busClient.close();
      await storage.close();
    },
  };
}

/** Under its own prefix, so a bucket lifecycle rule can expire archives a day after the link does. */
export const exportPrefix = (userId: string) => `exports/${userId}/`;
export const exportKey = (userId: string, jobId: string) => `${exportPrefix(userId)}${jobId}.zip`;
