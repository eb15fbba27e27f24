import { createHash } from 'node:crypto';
import { isTodaySomewhere, type ReminderRecipient } from '@spark/contracts';
import { DomainError } from '@spark/errors';
import type { ServiceBus } from '@spark/messaging';
import { type Job, UnrecoverableError } from 'bullmq';

/**
 * What the notifier holds a spark reminder to, by e-mail or push, since the progress service that queues it chooses
 * only whom to remind: of today, once a day, and by e-mail only to a client's own account.
 */
const refused = (why: string) => new UnrecoverableError(`spark reminder not sent: ${why}`);

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

/**
 * The account a reminder e-mail is for, as the auth-service knows it: its address must be the job's, and its name is
 * the greeting. Refused for good when the account is not a client's; retried when the auth-service does not answer.
 */
export async function reminderRecipient(bus: ServiceBus, job: { userId: string; email: string }): Promise<ReminderRecipient> {
  const recipient = await bus.request('auth.reminder-recipient', { userId: job.userId }).catch((error: unknown) => {
    throw error instanceof DomainError && error.code === 'NOT_FOUND' ? refused('no client has this account') : error;
  });
  if (recipient.email.toLowerCase() !== job.email.toLowerCase()) throw refused("this is not the address of the client's account");
  return recipient;
}
