import { UnrecoverableError } from 'bullmq';

/**
 * An e-mail that goes only with the gateway's statement of it (an admin's campaign, a visitor's form, a client's
 * request) fails for good, unsent, when the check of that statement found a reason to refuse it.
 */
export function refuseUnstated(what: string, refusal: string | undefined): void {
  if (refusal) throw new UnrecoverableError(`${what} not sent: ${refusal}`);
}
