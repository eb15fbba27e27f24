import { createHash } from 'node:crypto';
import type { SigningKeys } from '@spark/config';
import type { MailApproval, SendInvestorEmailCommand } from '@spark/contracts';
import { mailApprovals } from './mail-approvals';

/** What an admin approves: one campaign's text, to one recipient. */
interface CampaignMail {
  email: string;
  subject: string;
  body: string;
}

const approvals = mailApprovals('campaign-approval', 'no admin approved this text for this recipient');
// The text is hashed once per campaign, not signed whole for each of up to a thousand recipients.
const digestOf = ({ subject, body }: Omit<CampaignMail, 'email'>) =>
  createHash('sha256')
    .update(JSON.stringify([subject, body]))
    .digest('base64url');

/** The gateway's approval, for each recipient, of the text the admin whose token it verified sends now. */
export function signedCampaignApproval(
  keys: SigningKeys,
  campaign: Pick<SendInvestorEmailCommand, 'emails' | 'subject' | 'body'>,
  approvedAt = Date.now(),
): SendInvestorEmailCommand['approval'] {
  const content = digestOf(campaign);
  return { approvedAt, signatures: Object.fromEntries(campaign.emails.map((email) => [email, approvals.sign(keys, { email, content }, approvedAt)])) };
}

/**
 * Why the notifier refuses an investor e-mail, or undefined when an admin approved exactly its text for its recipient,
 * lately: a compromised investor-service, which queues these e-mails, cannot have the product's name put on a text of
 * its own, or on a campaign sent to an address no admin chose.
 */
export function campaignApprovalRefusal(keys: SigningKeys, mail: CampaignMail & { approval: MailApproval }, now: number): string | undefined {
  return approvals.refusal(keys, { email: mail.email, content: digestOf(mail) }, mail.approval, now);
}
