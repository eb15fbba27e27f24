import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { loadConfig, notifierEnv } from '@spark/config';
import { createLogger, PinoNestLogger } from '@spark/logging';
import { createServiceDataSource, prepareSchema } from '@spark/persistence';
import { QUEUES } from '@spark/contracts';
import { JobQueues } from '@spark/jobs';
import { startAccountErasure } from '@spark/service-runtime';
import { createMetrics, dependencyReadiness, onShutdown, queueDepthMetric, runMain, startHealthServer } from '@spark/runtime';
import { Redis } from 'ioredis';
import { Mailer } from './mail/mailer';
import { sentMailEraser } from './mail/sent-mail-erasure';
import { startPushSender } from './push/push-sender';
import { SentMailRepository } from './mail/sent-mail.repository';
import { notifierMigrations } from './migrations';
import { NotifierModule } from './notifier.module';

export async function startNotifier(env: NodeJS.ProcessEnv = process.env) {
  const config = loadConfig(notifierEnv, env);
  const logger = createLogger('notifier', config.LOG_LEVEL, { format: config.LOG_FORMAT });
  const dataSource = createServiceDataSource({
    url: config.DATABASE_URL,
    schema: 'notifier',
    entities: [],
    migrations: notifierMigrations,
    applicationName: 'notifier',
  });
  const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: null });
  const metrics = createMetrics('notifier');
  let started = false;
  // Its ledger (PostgreSQL) and its queue (Redis); a mail server that is away only delays mail, retried.
  const health = await startHealthServer(
    config.HEALTH_PORT,
    dependencyReadiness({ postgres: () => dataSource.query('SELECT 1'), redis: () => redis.ping() }, () => started),
    { '/metrics': metrics.page },
  );
  await prepareSchema(dataSource, 'notifier', {
    url: config.DATABASE_URL,
    runMigrations: config.RUN_MIGRATIONS,
    onWaiting: (reason) => logger.info({ reason: String(reason) }, 'waiting for the schema to be migrated (RUN_MIGRATIONS=false)'),
  });
  const mailer = new Mailer(config.SMTP_URL, config.MAIL_FROM);
  const sent = new SentMailRepository(dataSource);
  const app = await NestFactory.createApplicationContext(
    NotifierModule.register(redis, config.BUS_PREFIX, {
      mailer,
      sent,
      logger,
      context: { publicUrl: config.PUBLIC_URL, leadAlertEmail: config.LEAD_ALERT_EMAIL },
      concurrency: config.NOTIFIER_CONCURRENCY,
      lockMs: config.NOTIFIER_LOCK_MS,
      retry: { firstDelayMs: config.NOTIFIER_RETRY_FIRST_MS, maxDelayMs: config.NOTIFIER_RETRY_MAX_MS },
    }),
    { logger: new PinoNestLogger(logger) },
  );
  const queues = new JobQueues(redis, config.BUS_PREFIX);
  queueDepthMetric(metrics.registry, [queues.queue(QUEUES.mail), queues.queue(QUEUES.push)]);
  const vapid =
    config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY
      ? { publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY, subject: config.VAPID_SUBJECT }
      : undefined;
  const push = startPushSender({ redis, busPrefix: config.BUS_PREFIX, vapid, sent, logger });
  const erasure = startAccountErasure({
    part: 'notifier',
    eraser: sentMailEraser(dataSource),
    dataSource,
    redisUrl: config.REDIS_URL,
    busPrefix: config.BUS_PREFIX,
    busTimeoutMs: config.BUS_TIMEOUT_MS,
    logger,
  });
  started = true;
  logger.info('ready');
  return async () => {
    health?.close();
    await app.close();
    await erasure.close();
    await push.close();
    await queues.close();
    mailer.close();
    await dataSource.destroy();
    redis.disconnect();
  };
}

if (require.main === module) runMain('notifier', async () => onShutdown(await startNotifier()));
