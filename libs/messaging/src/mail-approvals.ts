import type { SigningKeys } from '@spark/config';
import type { MailApproval } from '@spark/contracts';
import { gatewayStatement, isCurrentStatement } from './gateway-statements';

/**
 * How long after the gateway's statement its e-mail may still go: the outbox hands an e-mail over within seconds and
 * the notifier retries a failing one for hours; one still waiting days later is not sent.
 */
export const MAIL_APPROVAL_VALID_MS = 3 * 24 * 3600_000;

/** One e-mail a statement is about: its address, and what decides its text (the text's hash, or a choice of texts). */
interface ApprovedMail {
  email: string;
  content: string;
}

/**
 * The gateway's statements of one kind, for the notifier, that a person it served asked for an e-mail with this
 * content to this address (an admin's campaign, a visitor's interest form, a client's onboarding). They are carried in
 * the e-mail's job by the service that queues it, which cannot make one: the notifier sends such an e-mail only with
 * one made within `validMs`.
 */
export function mailApprovals(kind: string, refusal: string, validMs = MAIL_APPROVAL_VALID_MS) {
  const statement = gatewayStatement('notifier', `${kind}\n`);
  const bodyOf = (approvedAt: number, { email, content }: ApprovedMail) => JSON.stringify([approvedAt, email, content]);
  return {
    sign: (keys: SigningKeys, mail: ApprovedMail, approvedAt: number): string => statement.sign(keys, bodyOf(approvedAt, mail)),
    /** The statement about one e-mail, as its job carries it. */
    approval: (keys: SigningKeys, mail: ApprovedMail, approvedAt: number): MailApproval => ({
      approvedAt,
      signature: statement.sign(keys, bodyOf(approvedAt, mail)),
    }),
    /** Why the notifier refuses `mail`, or undefined when the gateway stated it lately. */
    refusal(keys: SigningKeys, mail: ApprovedMail, { approvedAt, signature }: MailApproval, now: number): string | undefined {
      if (!statement.isSignedBy(keys, bodyOf(approvedAt, mail), signature)) return refusal;
      if (!isCurrentStatement(approvedAt, now, validMs)) return 'its approval is no longer current';
      return undefined;
    },
  };
}
