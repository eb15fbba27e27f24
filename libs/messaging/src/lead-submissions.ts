import type { SigningKeys } from '@spark/config';
import type { LeadRole, MailApproval } from '@spark/contracts';
import { mailApprovals } from './mail-approvals';

/**
 * The interest form as a visitor submitted it: the address, the role that picks the confirmation's wording, and the
 * visitor's own words that the team's alert quotes.
 */
interface SubmittedLead {
  email: string;
  role: LeadRole;
  interest?: string | null;
}

const submissions = mailApprovals('lead-submission', 'no visitor submitted this form');
const mailOf = ({ email, role, interest }: SubmittedLead) => ({ email, content: JSON.stringify([role, interest ?? null]) });

/** The gateway's statement that a visitor submitted the interest form with these fields now. */
export const signedLeadSubmission = (keys: SigningKeys, lead: SubmittedLead, submittedAt = Date.now()): MailApproval =>
  submissions.approval(keys, mailOf(lead), submittedAt);

/**
 * Why the notifier refuses a lead's confirmation or the team's alert, or undefined when a visitor submitted that form
 * lately: a compromised leads-service, which queues these e-mails, cannot have the product mail an address nobody
 * submitted, nor tell the team of a lead nobody submitted, or in words that are not the visitor's.
 */
export const leadSubmissionRefusal = (keys: SigningKeys, lead: SubmittedLead & { submission: MailApproval }, now: number): string | undefined =>
  submissions.refusal(keys, mailOf(lead), lead.submission, now);
