import type { ClientRecipient } from '@spark/contracts';
import { DomainError } from '@spark/errors';
import type { ServiceBus } from '@spark/messaging';
import { UnrecoverableError } from 'bullmq';

/**
 * The client's account an e-mail is for, as the auth-service knows it, when the service that queued the e-mail chose
 * its address by itself (a spark reminder, a data export): the job's address must be the account's. Refused for good,
 * naming `what` was not sent, when the account is not a client's or has another address; retried when the
 * auth-service does not answer.
 */
export async function clientRecipient(bus: ServiceBus, what: string, job: { userId: string; email: string }): Promise<ClientRecipient> {
  const refused = (why: string) => new UnrecoverableError(`${what} not sent: ${why}`);
  const recipient = await bus.request('auth.client-recipient', { userId: job.userId }).catch((error: unknown) => {
    throw error instanceof DomainError && error.code === 'NOT_FOUND' ? refused('no client has this account') : error;
  });
  if (recipient.email.toLowerCase() !== job.email.toLowerCase()) throw refused("this is not the address of the client's account");
  return recipient;
}
