import { QUEUES } from '@spark/contracts';
import { assertHandlersComplete, bullPrefix, closeWorker, type JobHandlers, runJob } from '@spark/jobs';
import { type Logger, runWithCorrelationId } from '@spark/logging';
import { RedisStreamsClient, ServiceBus } from '@spark/messaging';
import { type Job, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import webpush from 'web-push';
import type { SentMailRepository } from '../mail/sent-mail.repository';
import { VapidAuthorizations, type VapidKeys } from './vapid-authorizations';

/** What the service worker shows (apps/web/public/push-handler.js): tapping it opens Quick Capture. */
const reminderNotification = (firstName: string | null) => ({
  title: 'A spark for today?',
  body: `${firstName ? `${firstName}, n` : 'N'}o spark yet today. One photo keeps your streak going.`,
  url: '/app?capture=1',
});

/**
 * Sends the `push` queue's notifications with `web-push` (VAPID-signed, encrypted for the subscription). Like an
 * e-mail, each job is claimed in the notifier's ledger first, so a redelivered job does not notify twice. Without
 * VAPID keys a push job fails at once: it cannot be sent by waiting.
 */
export function startPushSender(deps: {
  redis: Redis;
  redisUrl: string;
  busPrefix: string;
  busTimeoutMs: number;
  vapid?: VapidKeys;
  sent: SentMailRepository;
  logger: Logger;
}) {
  const { vapid, sent, logger } = deps;
  const authorizations = vapid && new VapidAuthorizations(vapid);
  // Tells the progress-service of a subscription the push service has dropped, so the next reminder goes by e-mail.
  const busClient = new RedisStreamsClient({ redisUrl: deps.redisUrl, prefix: deps.busPrefix, timeoutMs: deps.busTimeoutMs, logger });
  const bus = new ServiceBus(busClient);
  const handlers: JobHandlers<typeof QUEUES.push> = {
    'spark-reminder-push': async ({ subscription, firstName, userId }, job) => {
      if (!authorizations) throw new UnrecoverableError('Web Push is not configured (VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY)');
      const key = `${job.queueName}:${job.id}`;
      const claim = await sent.claim(key, job.name, 'push');
      if (claim === 'already-sent') return;
      if (claim === 'in-flight') throw new Error(`push ${key} is being sent by another delivery`);
      // web-push encrypts for the subscription, under the push service's reused VAPID token; the request goes out
      // with fetch, which (unlike web-push's own sender) also speaks plain http, as a push service stand-in does in tests.
      const request = webpush.generateRequestDetails(subscription, JSON.stringify(reminderNotification(firstName)), {
        headers: { Authorization: authorizations.for(subscription.endpoint) },
        TTL: 4 * 3600,
        urgency: 'normal',
      });
      const response = await fetch(request.endpoint, {
        method: request.method,
        headers: request.headers,
        body: new Uint8Array(request.body ?? Buffer.alloc(0)),
        signal: AbortSignal.timeout(10_000),
      }).catch(async (error: unknown) => {
        await sent.markFailed(key, error instanceof Error ? error.message : String(error));
        throw error;
      });
      if (!response.ok) {
        await sent.markFailed(key, `push service answered ${response.status}`);
        // The device unsubscribed or the subscription expired: retrying cannot help; the client is reminded by e-mail next.
        if (response.status === 404 || response.status === 410) {
          if (userId) await bus.request('progress.push-subscription-gone', { userId, endpoint: subscription.endpoint });
          throw new UnrecoverableError(`push subscription gone (${response.status})`);
        }
        throw new Error(`push service answered ${response.status}`);
      }
      await sent.markSent(key, 'push');
    },
  };
  assertHandlersComplete(QUEUES.push, handlers);
  const connection = deps.redis.duplicate({ maxRetriesPerRequest: null });
  const worker = new Worker(QUEUES.push, (job: Job) => runWithCorrelationId(`job:${job.id ?? 'unknown'}`, () => runJob(QUEUES.push, handlers, job)), {
    connection,
    prefix: bullPrefix(deps.busPrefix),
    concurrency: 20,
  });
  worker.on('error', (error) => logger.warn({ err: error }, 'push worker error'));
  worker.on('failed', (job, error) => logger.warn({ err: error, jobId: job?.id, attemptsMade: job?.attemptsMade }, 'push notification failed'));
  return {
    async close() {
      await closeWorker(worker, connection);
      connection.disconnect();
      await busClient.close();
    },
  };
}
