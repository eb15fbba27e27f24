import type { QueueName } from '@spark/contracts';
import type { JobsOptions } from 'bullmq';

/** The backoff type of the mail queue's jobs; its delays come from the worker's `mailRetryDelay`. */
export const MAIL_BACKOFF = 'mail-capped-exponential';

export interface MailRetrySettings {
  firstDelayMs: number;
  maxDelayMs: number;
}

/**
 * E-mail outlives an outage: delays double from the first up to the cap, and 40 attempts with the defaults
 * (1 s doubling to 5 minutes) span about 2 h 45 min, where 8 doubling attempts gave up after about 2 minutes.
 */
export const MAIL_ATTEMPTS = 40;

/** The delay before retry number `attemptsMade` (1 for the first retry), with ±10 % jitter so retries spread. */
export function mailRetryDelay(attemptsMade: number, { firstDelayMs, maxDelayMs }: MailRetrySettings, random = Math.random): number {
  const doubled = Math.min(maxDelayMs, firstDelayMs * 2 ** Math.max(0, attemptsMade - 1));
  return Math.round(doubled * (0.9 + 0.2 * random()));
}

/** Finished jobs are kept a day for the outbox check, failed ones a week for the operator. */
const retention: JobsOptions = { removeOnComplete: { age: 24 * 3600, count: 50_000 }, removeOnFail: { age: 7 * 24 * 3600 } };

/**
 * Each queue's retry budget: e-mail retries for hours; an account-deletion part for about a day (its report goes
 * to the auth-service, which may be down); a DITL job keeps its short budget (the page waits 120 s).
 */
export function jobOptionsOf(queue: QueueName): JobsOptions {
  if (queue === 'mail') return { ...retention, attempts: MAIL_ATTEMPTS, backoff: { type: MAIL_BACKOFF } };
  // A failed deletion part stays until an admin retries it: it shows them why it failed, and while it is there the
  // auth-service's sweep of open parts, which adds the part's job again under its own id, leaves it to them. BullMQ
  // trims the failed list by the age of the job that fails last, so no job of these queues may carry an age.
  if (queue.startsWith('account-deletion-')) {
    return { ...retention, removeOnFail: false, attempts: 17, backoff: { type: 'exponential', delay: 1000 } };
  }
  return { ...retention, attempts: 8, backoff: { type: 'exponential', delay: 1000 } };
}

/**
 * How many times a job may be taken back from a worker that died holding it (BullMQ's `maxStalledCount`). One stall
 * more fails it for good, whatever retries it has left, and the outbox then counts it finished: an e-mail never sent,
 * a deletion part left to an admin. A job whose deliveries are safe to repeat (the notifier's ledger, an erasure) may
 * stall as often as it may fail, so a crash loop or a rolling deploy that kills its holders loses no more than an
 * outage would. A generation or an archive may itself be what kills its process (its memory), taking the service down
 * each time it runs, so those stop early; the DITL sweep fails a generation the page gave up on anyway.
 */
export function maxStalledCountOf(queue: QueueName): number {
  if (queue === 'ditl' || queue === 'export') return 2;
  return jobOptionsOf(queue).attempts ?? 1;
}
