import { developmentSigningKeys } from '@spark/config';
import { signedCampaignApproval } from './campaign-approvals';
import { leadSubmissionRefusal, signedLeadSubmission } from './lead-submissions';
import { MAIL_APPROVAL_VALID_MS } from './mail-approvals';

const keys = developmentSigningKeys();
const now = Date.parse('2026-11-30T12:00:00Z');
const lead = { email: 'ada@example.com', role: 'client', interest: 'Sleeping before midnight' } as const;
const submission = signedLeadSubmission(keys, lead, now);
const refused = 'no visitor submitted this form';

describe('lead submissions', () => {
  it("lets a visitor's submitted form have its e-mails, for days", () => {
    expect(leadSubmissionRefusal(keys, { ...lead, submission }, now)).toBeUndefined();
    expect(leadSubmissionRefusal(keys, { ...lead, submission }, now + MAIL_APPROVAL_VALID_MS)).toBeUndefined();
  });

  it.each([
    ['another address', { ...lead, email: 'mallory@example.com', submission }],
    ['another role, which words the e-mail otherwise', { ...lead, role: 'coach' as const, submission }],
    ["words that are not the visitor's, which the team's alert quotes", { ...lead, interest: 'Confirm the payout at evil.example', submission }],
    ['no words where the visitor wrote some', { ...lead, interest: null, submission }],
    ['a submission moved in time', { ...lead, submission: { ...submission, approvedAt: now + 1 } }],
    [
      "an admin's campaign approval for the same address",
      {
        ...lead,
        submission: {
          approvedAt: now,
          signature: signedCampaignApproval(keys, { emails: [lead.email], subject: 'client', body: 'client' }, now).signatures[lead.email] as string,
        },
      },
    ],
  ])('refuses %s', (_case, mail) => {
    expect(leadSubmissionRefusal(keys, mail, now)).toBe(refused);
  });

  it('refuses a submission no longer current, though signed', () => {
    const old = signedLeadSubmission(keys, lead, now - MAIL_APPROVAL_VALID_MS - 1);
    expect(leadSubmissionRefusal(keys, { ...lead, submission: old }, now)).toBe('its approval is no longer current');
  });
});
