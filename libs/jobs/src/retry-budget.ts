import type { QueueName } from '@spark/contracts';
import type { JobsOptions } from 'bullmq';

/** How a capped back-off grows: doubling from the first delay, never past the cap. */
export interface CappedDelays {
  firstDelayMs: number;
  maxDelayMs: number;
}

/** A queue's capped back-off: the defaults of its delays, its attempts, and the backoff type its jobs carry. */
export interface CappedBackoff extends CappedDelays {
  /** Named in every job queued with it, so never renamed; BullMQ asks the worker's `backoffStrategy` for its delays. */
  type: string;
  attempts: number;
}

/**
 * The queues whose jobs must outlive an outage, where BullMQ's uncapped `exponential` spends a budget of hours on a
 * few retries an hour apart. E-mail retries for hours. An export does too, since the client was told a link is on its
 * way, but ends well inside the day its grant lets the other services answer (`EXPORT_GRANT_VALID_MS`): a later
 * attempt would only be refused. A push reminder tries no longer than the reminder tick would still send a missed
 * reminder (`REMINDER_GRACE_MINUTES`), so it never arrives later than a missed one may; `ensureToday` refuses any
 * reminder's retry once its day is over for its client.
 */
export const CAPPED_BACKOFFS = {
  mail: { type: 'mail-capped-exponential', attempts: 40, firstDelayMs: 1000, maxDelayMs: 300_000 },
  export: { type: 'export-capped-exponential', attempts: 34, firstDelayMs: 1000, maxDelayMs: 900_000 },
  push: { type: 'push-capped-exponential', attempts: 29, firstDelayMs: 1000, maxDelayMs: 300_000 },
} as const satisfies Partial<Record<QueueName, CappedBackoff>>;

export type CappedQueue = keyof typeof CAPPED_BACKOFFS;

const isCapped = (queue: QueueName): queue is CappedQueue => Object.hasOwn(CAPPED_BACKOFFS, queue);

/** The delay before retry number `attemptsMade` (1 for the first retry), with ±10 % jitter so retries spread. */
export function cappedRetryDelay(attemptsMade: number, { firstDelayMs, maxDelayMs }: CappedDelays, random = Math.random): number {
  const doubled = Math.min(maxDelayMs, firstDelayMs * 2 ** Math.max(0, attemptsMade - 1));
  return Math.round(doubled * (0.9 + 0.2 * random()));
}

/**
 * The `settings.backoffStrategy` every worker of `queue` must register, with the delays its configuration sets: BullMQ
 * fails a job whose backoff type no strategy of its worker knows.
 */
export function cappedBackoffStrategy(queue: CappedQueue, delays: CappedDelays = CAPPED_BACKOFFS[queue]) {
  const { type } = CAPPED_BACKOFFS[queue];
  return (attemptsMade: number, backoffType?: string): number => (backoffType === type ? cappedRetryDelay(attemptsMade, delays) : delays.firstDelayMs);
}

/** Finished jobs are kept a day for the outbox check, failed ones a week for the operator. */
const retention: JobsOptions = { removeOnComplete: { age: 24 * 3600, count: 50_000 }, removeOnFail: { age: 7 * 24 * 3600 } };

/**
 * Each queue's retry budget: e-mail, exports and pushes by their capped back-off (`CAPPED_BACKOFFS`); an
 * account-deletion part for about a day (its report goes to the auth-service, which may be down); a DITL job keeps
 * its short budget (the page waits for it only briefly).
 */
export function jobOptionsOf(queue: QueueName): JobsOptions {
  if (isCapped(queue)) {
    const { attempts, type } = CAPPED_BACKOFFS[queue];
    return { ...retention, attempts, backoff: { type } };
  }
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
 * each time it runs, so those stop early, however long an export may wait out an outage; the DITL sweep fails a
 * generation the page gave up on anyway.
 */
export function maxStalledCountOf(queue: QueueName): number {
  if (queue === 'ditl' || queue === 'export') return 2;
  return jobOptionsOf(queue).attempts ?? 1;
}
