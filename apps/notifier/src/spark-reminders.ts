import { createHash } from 'node:crypto';
import { isTodaySomewhere } from '@spark/contracts';
import { type Job, UnrecoverableError } from 'bullmq';

/**
 * What the notifier holds a spark reminder to, by e-mail or push, since the progress service that queues it chooses
 * only whom to remind: of today and once a day (and by e-mail only to a client's own account: `clientRecipient`).
 */
export const SPARK_REMINDER = 'spark reminder';
const refused = (why: string) => new UnrecoverableError(`${SPARK_REMINDER} not sent: ${why}`);

/**
 * A reminder says "no spark yet today": one of another day is refused for good. Its producer states when that day ends
 * for its client, so a reminder held up by retries is not sent after their midnight; that instant is signed with the
 * job, yet a day that is over everywhere is refused whatever it says, so no producer can stretch a reminder past it.
 */
export function ensureToday({ localDate, dayEndsAt }: { localDate: string; dayEndsAt?: string | undefined }, now = new Date()): void {
  if (!isTodaySomewhere(localDate, now)) throw refused(`${localDate} is not today anywhere`);
  if (dayEndsAt !== undefined && now.getTime() >= Date.parse(dayEndsAt)) throw refused(`the client's ${localDate} ended at ${dayEndsAt}`);
}

/** How long a push service may hold a reminder for a device that is offline. */
const PUSH_HOLD_SECONDS = 4 * 3600;

/**
 * A push service delivers a held notification when the device comes back, so a reminder is held no later than its
 * client's day ends: shown the next morning, "no spark yet today" would speak of the wrong day.
 */
export function pushHoldSeconds(dayEndsAt: string | undefined, now = new Date()): number {
  if (dayEndsAt === undefined) return PUSH_HOLD_SECONDS;
  return Math.min(PUSH_HOLD_SECONDS, Math.max(0, Math.floor((Date.parse(dayEndsAt) - now.getTime()) / 1000)));
}

/**
 * The ledger key of a reminder: one per account or device and day, whatever the number of jobs naming them. Hashed:
 * the ledger outlives an erased account and must not name it.
 */
export const oncePerDay = (job: Job, recipient: string, localDate: string) =>
  `${job.queueName}:${job.name}:${createHash('sha256').update(`${recipient}\n${localDate}`).digest('base64url')}`;
