import type { SigningKeys } from '@spark/config';
import type { MailApproval } from '@spark/contracts';
import { mailApprovals } from './mail-approvals';

/** Who asked for a Day in the Life: the client's address, and the first name its e-mail greets them by. */
interface DitlRequester {
  email: string;
  firstName: string;
}

// A coach may regenerate a client's Day in the Life long after the client asked for it, and its e-mail then goes
// again, to the same address under the same name: the statement does not expire.
const requests = mailApprovals('ditl-request', 'no client asked for it at this address under this name', Number.POSITIVE_INFINITY);
const mailOf = ({ email, firstName }: DitlRequester) => ({ email, content: firstName });

/** The gateway's statement that the client signed in at this address asked for a Day in the Life under this name. */
export const signedDitlRequest = (keys: SigningKeys, requester: DitlRequester, requestedAt = Date.now()): MailApproval =>
  requests.approval(keys, mailOf(requester), requestedAt);

/**
 * Why the notifier refuses a "Day in the Life is ready" e-mail, or undefined when a client asked for it at that address
 * under that name: a compromised ditl-service, which queues these e-mails, cannot mail anyone else, nor greet the
 * client with a text of its own.
 */
export const ditlRequestRefusal = (keys: SigningKeys, mail: DitlRequester & { requested: MailApproval }, now: number): string | undefined =>
  requests.refusal(keys, mailOf(mail), mail.requested, now);
