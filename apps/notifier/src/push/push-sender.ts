import type { SigningKeys } from '@spark/config';
import { pushEndpointAllowed, QUEUES } from '@spark/contracts';
import {
  assertHandlersComplete,
  bullPrefix,
  type CappedDelays,
  cappedBackoffStrategy,
  closeWorker,
  type JobHandlers,
  maxStalledCountOf,
  runJob,
  WORKER_METRICS,
} from '@spark/jobs';
import { type Logger, runWithCorrelationId } from '@spark/logging';
import type { ServiceBus } from '@spark/messaging';
import { type Job, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import webpush from 'web-push';
import type { SentMailRepository } from '../mail/sent-mail.repository';
import { recordedFromNote, recordSent } from '../sent-records';
import { ensureToday, oncePerDay, pushHoldSeconds } from '../spark-reminders';
import { VapidAuthorizations, type VapidKeys } from './vapid-authorizations';

/** What the service worker shows (apps/web/public/push-handler.js): tapping it opens Quick Capture. */
const reminderNotification = (firstName: string | null) => ({
  title: 'A spark for today?',
  body: `${firstName ? `${firstName}, n` : 'N'}o spark yet today. One photo keeps your streak going.`,
  url: '/app?capture=1',
});

/**
 * Sends the `push` queue's notifications with `web-push` (VAPID-signed, encrypted for the subscription). Like an
 * e-mail, each is claimed in the notifier's ledger first, once per device and day, so neither a redelivered job nor
 * another job for the same device notifies it twice; once pushed, it is noted on the job as well as in the ledger,
 * so a failed ledger write does not notify it again either. Without VAPID keys a push job fails at once: it cannot be
 * sent by waiting. So does a job whose endpoint is not at one of `pushServiceOrigins`: anything that can write the
 * queue could otherwise make the notifier post anywhere.
 */
export function startPushSender(deps: {
  redis: Redis;
  busPrefix: string;
  /** Tells the progress service of a device that no longer takes notifications. */
  bus: ServiceBus;
  vapid?: VapidKeys;
  pushServiceOrigins: readonly string[];
  sent: SentMailRepository;
  logger: Logger;
  /** The push jobs' signing keys (`SIGNING_KEYS`). */
  signingKeys: SigningKeys;
  /** The delays of a push's retries, as an e-mail's (`NOTIFIER_RETRY_FIRST_MS`, `NOTIFIER_RETRY_MAX_MS`). */
  retry: CappedDelays;
}) {
  const { vapid, pushServiceOrigins, sent, logger } = deps;
  const authorizations = vapid && new VapidAuthorizations(vapid);
  // A subscription the push service has dropped, or at a push service no longer allowed: the next reminder goes by e-mail.
  const forget = (userId: string, endpoint: string) => deps.bus.request('progress.push-subscription-gone', { userId, endpoint });
  const handlers: JobHandlers<typeof QUEUES.push> = {
    'spark-reminder-push': async ({ subscription, firstName, userId, localDate, dayEndsAt }, job) => {
      if (!authorizations) throw new UnrecoverableError('Web Push is not configured (VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY)');
      ensureToday({ localDate, dayEndsAt });
      // Stored before its push service left PUSH_SERVICE_ORIGINS, or queued by something other than the reminder tick:
      // nothing is sent, and the client's subscription there is forgotten so the next reminder goes by e-mail.
      if (!pushEndpointAllowed(subscription.endpoint, pushServiceOrigins)) {
        await forget(userId, subscription.endpoint);
        throw new UnrecoverableError('push endpoint is not at an allowed push service (PUSH_SERVICE_ORIGINS)');
      }
      const key = oncePerDay(job, subscription.endpoint, localDate);
      if (await recordedFromNote(sent, job, key)) return;
      const claim = await sent.claim(key, job.name, 'push', { of: userId, queuedAt: new Date(job.timestamp) });
      // A reminder that waited (for a notifier that was down, say) while its client's account was erased: nobody is
      // left to remind, and the device may be someone else's by now.
      if (claim === 'erased') {
        logger.info({ job: job.name, jobId: job.id }, 'push to an account erased since it was queued; not sent');
        return;
      }
      if (claim === 'already-sent') return;
      if (claim === 'in-flight') throw new Error(`push ${key} is being sent by another delivery`);
      // web-push encrypts for the subscription, under the push service's reused VAPID token; the request goes out
      // with fetch, which (unlike web-push's own sender) also speaks plain http, as a push service stand-in does in tests.
      const request = webpush.generateRequestDetails(subscription, JSON.stringify(reminderNotification(firstName)), {
        headers: { Authorization: authorizations.for(subscription.endpoint) },
        TTL: pushHoldSeconds(dayEndsAt),
        urgency: 'normal',
      });
      const response = await fetch(request.endpoint, {
        method: request.method,
        headers: request.headers,
        body: new Uint8Array(request.body ?? Buffer.alloc(0)),
        signal: AbortSignal.timeout(10_000),
        // A push service answers the POST itself; following a redirect would take the request to any address.
        redirect: 'error',
      }).catch(async (error: unknown) => {
        await sent.markFailed(key, error instanceof Error ? error.message : String(error));
        throw error;
      });
      if (!response.ok) {
        await sent.markFailed(key, `push service answered ${response.status}`);
        // The device unsubscribed or the subscription expired: retrying cannot help; the client is reminded by e-mail next.
        if (response.status === 404 || response.status === 410) {
          await forget(userId, subscription.endpoint);
          throw new UnrecoverableError(`push subscription gone (${response.status})`);
        }
        throw new Error(`push service answered ${response.status}`);
      }
      await recordSent(sent, job, key, 'push');
    },
  };
  assertHandlersComplete(QUEUES.push, handlers);
  const connection = deps.redis.duplicate({ maxRetriesPerRequest: null });
  const worker = new Worker(
    QUEUES.push,
    (job: Job) => runWithCorrelationId(`job:${job.id ?? 'unknown'}`, () => runJob(QUEUES.push, handlers, job, deps.signingKeys)),
    {
      connection,
      prefix: bullPrefix(deps.busPrefix),
      concurrency: 20,
      maxStalledCount: maxStalledCountOf(QUEUES.push),
      settings: { backoffStrategy: cappedBackoffStrategy(QUEUES.push, deps.retry) },
      metrics: WORKER_METRICS,
    },
  );
  worker.on('error', (error) => logger.warn({ err: error }, 'push worker error'));
  worker.on('failed', (job, error) => logger.warn({ err: error, jobId: job?.id, attemptsMade: job?.attemptsMade }, 'push notification failed'));
  return {
    async close() {
      await closeWorker(worker, connection);
      connection.disconnect();
    },
  };
}
