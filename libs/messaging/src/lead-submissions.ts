import type { SigningKeys } from '@spark/config';
import type { CreateLeadCommand, LeadRole, MailApproval } from '@spark/contracts';
import { mailApprovals } from './mail-approvals';

/** What a visitor submits that the confirmation's text depends on: the address, and the role that picks its wording. */
interface SubmittedLead {
  email: string;
  role: LeadRole;
}

const submissions = mailApprovals('lead-submission', 'no visitor submitted this address and role');
const mailOf = ({ email, role }: SubmittedLead) => ({ email, content: role });

/** The gateway's statement that a visitor submitted the interest form with this address and role now. */
export const signedLeadSubmission = (keys: SigningKeys, lead: SubmittedLead, submittedAt = Date.now()): CreateLeadCommand['submission'] => ({
  approvedAt: submittedAt,
  signature: submissions.sign(keys, mailOf(lead), submittedAt),
});

/**
 * Why the notifier refuses a lead confirmation, or undefined when a visitor submitted its address and role lately: a
 * compromised leads-service, which queues these e-mails, cannot have the product mail an address nobody submitted.
 */
export const leadSubmissionRefusal = (keys: SigningKeys, lead: SubmittedLead & { submission: MailApproval }, now: number): string | undefined =>
  submissions.refusal(keys, mailOf(lead), lead.submission, now);
