import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { loadConfig, type NotifierConfig, notifierEnv } from '@spark/config';
import { QUEUES } from '@spark/contracts';
import { PinoNestLogger } from '@spark/logging';
import { onShutdown, queueDepthMetric, runMain, stopSteps } from '@spark/runtime';
import { closeWorker, MailOpener, queueSettled, unlessRedisLost } from '@spark/jobs';
import { type AccountErasureWorker, type AppInfrastructure, bootApp, startAccountErasure } from '@spark/service-runtime';
import { MailProcessor } from './mail/mail.processor';
import { Mailer } from './mail/mailer';
import { sentMailEraser } from './mail/sent-mail-erasure';
import { SentMailRepository } from './mail/sent-mail.repository';
import { LeadAlertCap } from './mail/lead-alert-cap';
import { notifierMigrations } from './migrations';
import { NotifierModule } from './notifier.module';
import { startPushSender } from './push/push-sender';

/** The sparks bucket, as the progress service's signed links name it (path-style, as `UrlSigner`). */
const storageUrlOf = ({ S3_ENDPOINT, S3_BUCKET }: NotifierConfig) => `${S3_ENDPOINT.replace(/\/$/, '')}/${S3_BUCKET}/`;

const ERASURES_FIRST_MS = 10_000;

/**
 * The notifier: sends the `mail` queue's e-mails and the `push` queue's notifications, once each (its ledger in
 * PostgreSQL), and erases its part of deleted accounts. A mail server that is away only delays mail, retried.
 */
export function startNotifier(env: NodeJS.ProcessEnv = process.env) {
  // Its own settings are checked before anything starts (a missing SMTP_URL in production stops it here).
  const config = loadConfig(notifierEnv, env);
  const boot = { app: 'notifier', schema: 'notifier' as const, migrations: notifierMigrations, env, relaysOutbox: false };
  return bootApp(boot, async (infrastructure) => {
    const { dataSource, logger, bus, jobs } = infrastructure;
    // The erasures waiting go before the mail worker starts, so an e-mail queued for an account erased while the
    // notifier was down finds the address noted as erased instead of being sent first. Bounded: an auth-service that
    // does not answer the erasure holds the mail back only that long.
    const erasure = startAccountErasure({ part: 'notifier', eraser: sentMailEraser(dataSource) }, { config, dataSource, logger, bus });
    try {
      await queueSettled(jobs.queue(erasure.queue), ERASURES_FIRST_MS);
      return await startDelivery(config, infrastructure, erasure);
    } catch (error) {
      await erasure.close();
      throw error;
    }
  });
}

/** The mail worker and the push sender, and the steps that stop them with the erasure worker. */
async function startDelivery(config: NotifierConfig, { logger, dataSource, redis, jobs, bus, registry }: AppInfrastructure, erasure: AccountErasureWorker) {
  const mailer = new Mailer(config.SMTP_URL, config.MAIL_FROM);
  const sent = new SentMailRepository(dataSource);
  const retry = { firstDelayMs: config.NOTIFIER_RETRY_FIRST_MS, maxDelayMs: config.NOTIFIER_RETRY_MAX_MS };
  const app = await NestFactory.createApplicationContext(
    NotifierModule.register(redis, config.BUS_PREFIX, {
      mailer,
      sent,
      logger,
      context: { publicUrl: config.PUBLIC_URL, leadAlertEmail: config.LEAD_ALERT_EMAIL, storageUrl: storageUrlOf(config) },
      opener: await MailOpener.for(config.MAIL_SEAL_PRIVATE_KEYS),
      signingKeys: config.SIGNING_KEYS,
      cap: new LeadAlertCap(dataSource, jobs, config.LEAD_ALERTS_PER_HOUR),
      bus,
      concurrency: config.NOTIFIER_CONCURRENCY,
      lockMs: config.NOTIFIER_LOCK_MS,
      retry,
    }),
    { logger: new PinoNestLogger(logger) },
  );
  const vapid =
    config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY
      ? { publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY, subject: config.VAPID_SUBJECT }
      : undefined;
  const push = startPushSender({
    redis,
    busPrefix: config.BUS_PREFIX,
    bus,
    vapid,
    pushServiceOrigins: config.PUSH_SERVICE_ORIGINS,
    sent,
    logger,
    signingKeys: config.SIGNING_KEYS,
    retry,
  });
  const worked = [QUEUES.mail, QUEUES.push, erasure.queue].map((queue) => jobs.queue(queue));
  queueDepthMetric(registry, worked);
  return stopSteps({
    // Before the context closes it, which would wait on Redis even while Redis is down.
    'the mail worker': () => closeWorker(app.get(MailProcessor).worker, redis),
    // Nest closes the mail worker again, and a close let go above while Redis is down would hold it until the deadline.
    'the Nest context and its queues': () => unlessRedisLost(app.close(), redis),
    'the account erasure worker': () => erasure.close(),
    'the push sender': () => push.close(),
    'the SMTP connections': () => mailer.close(),
  });
}

if (require.main === module) runMain('notifier', async () => onShutdown(await startNotifier()));
