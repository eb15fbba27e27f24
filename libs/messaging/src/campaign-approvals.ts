import { createHash } from 'node:crypto';
import type { SigningKeys } from '@spark/config';
import type { CampaignApproval, SendInvestorEmailCommand } from '@spark/contracts';
import { gatewayStatement, isCurrentStatement } from './gateway-statements';

/**
 * How long after an admin sent a campaign its e-mails may still go: the outbox hands them over within seconds and the
 * notifier retries a failing one for hours; one still waiting days later is not sent.
 */
export const CAMPAIGN_APPROVAL_VALID_MS = 3 * 24 * 3600_000;

/** What an admin approves: one campaign's text, to one recipient. */
interface CampaignMail {
  email: string;
  subject: string;
  body: string;
}

const statement = gatewayStatement('notifier', 'campaign-approval\n');
// The text is hashed once per campaign, not signed whole for each of up to a thousand recipients.
const digestOf = ({ subject, body }: Omit<CampaignMail, 'email'>) =>
  createHash('sha256')
    .update(JSON.stringify([subject, body]))
    .digest('base64url');
const bodyOf = (approvedAt: number, email: string, digest: string) => JSON.stringify([approvedAt, email, digest]);

/** The gateway's approval, for each recipient, of the text the admin whose token it verified sends now. */
export function signedCampaignApproval(
  keys: SigningKeys,
  campaign: Pick<SendInvestorEmailCommand, 'emails' | 'subject' | 'body'>,
  approvedAt = Date.now(),
): SendInvestorEmailCommand['approval'] {
  const digest = digestOf(campaign);
  return { approvedAt, signatures: Object.fromEntries(campaign.emails.map((email) => [email, statement.sign(keys, bodyOf(approvedAt, email, digest))])) };
}

/**
 * Why the notifier refuses an investor e-mail, or undefined when an admin approved exactly its text for its recipient,
 * lately: a compromised investor-service, which queues these e-mails, cannot have the product's name put on a text of
 * its own, or on a campaign sent to an address no admin chose.
 */
export function campaignApprovalRefusal(keys: SigningKeys, mail: CampaignMail & { approval: CampaignApproval }, now: number): string | undefined {
  const { approvedAt, signature } = mail.approval;
  if (!statement.isSignedBy(keys, bodyOf(approvedAt, mail.email, digestOf(mail)), signature)) return 'no admin approved this text for this recipient';
  if (!isCurrentStatement(approvedAt, now, CAMPAIGN_APPROVAL_VALID_MS)) return 'its approval is no longer current';
  return undefined;
}
