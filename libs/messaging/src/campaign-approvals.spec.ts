import { developmentSigningKeys } from '@spark/config';
import { campaignApprovalRefusal, signedCampaignApproval } from './campaign-approvals';
import { MAIL_APPROVAL_VALID_MS } from './mail-approvals';
import { signedExportGrant } from './export-grants';

const keys = developmentSigningKeys();
const now = Date.parse('2026-11-30T12:00:00Z');
const campaign = { emails: ['ada@example.com', 'grace@example.com'], subject: 'Our first year', body: 'Thank you for believing in Spark.' };
const approval = signedCampaignApproval(keys, campaign, now);
const mailTo = (email: string, overrides: Partial<{ subject: string; body: string; approvedAt: number; signature: string }> = {}) => ({
  email,
  subject: overrides.subject ?? campaign.subject,
  body: overrides.body ?? campaign.body,
  approval: { approvedAt: overrides.approvedAt ?? approval.approvedAt, signature: overrides.signature ?? (approval.signatures[email] as string) },
});

describe('campaign approvals', () => {
  it("lets each recipient the admin chose get the admin's text, for days", () => {
    expect(Object.keys(approval.signatures)).toEqual(campaign.emails);
    expect(campaignApprovalRefusal(keys, mailTo('ada@example.com'), now)).toBeUndefined();
    expect(campaignApprovalRefusal(keys, mailTo('grace@example.com'), now + MAIL_APPROVAL_VALID_MS)).toBeUndefined();
  });

  it.each([
    ['another subject', mailTo('ada@example.com', { subject: 'Your account needs attention' }), 'no admin approved this text for this recipient'],
    ['another body', mailTo('ada@example.com', { body: 'Sign in at https://spark-login.example.net' }), 'no admin approved this text for this recipient'],
    ['another recipient', { ...mailTo('ada@example.com'), email: 'mallory@example.com' }, 'no admin approved this text for this recipient'],
    [
      "another recipient's approval",
      mailTo('ada@example.com', { signature: approval.signatures['grace@example.com'] }),
      'no admin approved this text for this recipient',
    ],
    ['an approval moved in time', mailTo('ada@example.com', { approvedAt: now + 1 }), 'no admin approved this text for this recipient'],
    [
      'a signature of another statement',
      mailTo('ada@example.com', {
        signature: signedExportGrant(keys, { userId: '7c1d6f8e-1a2b-4c3d-8e9f-0a1b2c3d4e5f', email: 'ada@example.com' }, now).signatures.auth,
      }),
      'no admin approved this text for this recipient',
    ],
  ])('refuses %s', (_case, mail, refusal) => {
    expect(campaignApprovalRefusal(keys, mail, now)).toBe(refusal);
  });

  it('refuses an approval no longer current, though signed', () => {
    const old = signedCampaignApproval(keys, campaign, now - MAIL_APPROVAL_VALID_MS - 1);
    const mail = { ...mailTo('ada@example.com'), approval: { approvedAt: old.approvedAt, signature: old.signatures['ada@example.com'] as string } };
    expect(campaignApprovalRefusal(keys, mail, now)).toBe('its approval is no longer current');
  });
});
