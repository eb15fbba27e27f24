import { createHash } from 'node:crypto';
import { isTodaySomewhere } from '@spark/contracts';
import { type Job, UnrecoverableError } from 'bullmq';

/**
 * What the notifier holds a spark reminder to, by e-mail or push, since the progress service that queues it chooses
 * only whom to remind: of today and once a day (and by e-mail only to a client's own account: `clientRecipient`).
 */
export const SPARK_REMINDER = 'spark reminder';
const refused = (why: string) => new UnrecoverableError(`${SPARK_REMINDER} not sent: ${why}`);

/** A reminder says "no spark yet today": one of another day is refused for good. */
export function ensureToday(localDate: string, now = new Date()): void {
  if (!isTodaySomewhere(localDate, now)) throw refused(`${localDate} is not today anywhere`);
}

/**
 * The ledger key of a reminder: one per account or device and day, whatever the number of jobs naming them. Hashed:
 * the ledger outlives an erased account and must not name it.
 */
export const oncePerDay = (job: Job, recipient: string, localDate: string) =>
  `${job.queueName}:${job.name}:${createHash('sha256').update(`${recipient}\n${localDate}`).digest('base64url')}`;
