import { developmentSigningKeys } from '@spark/config';
import { signedLeadSubmission } from '@spark/messaging';
import { leadAlert, leadAlertDigest } from './mail-templates';

const context = { publicUrl: 'https://spark.example', leadAlertEmail: 'team@spark.example', storageUrl: 'https://s3.example/sparks/' };

describe('the team alert for a new lead', () => {
  // The alert is a genuine Spark e-mail to the people who can read every client's sparks: a visitor's words in it must
  // not become a link a mail client offers them, the way to phish a coach.
  it("quotes the visitor's words with no web address or host a mail client would make a link of", () => {
    const keys = developmentSigningKeys();
    const visitor = {
      email: 'visitor@example.org',
      role: 'client' as const,
      interest:
        'Your dashboard session expired, re-verify at https://spark-coach.example/login or www.spark-login.example, ' +
        'file://files.example/a, \\\\files\\share or 203.0.113.7/login. I run 5.5 km daily.',
    };
    const mail = leadAlert(
      { ...visitor, leadId: '7d1c2f4e-3b8a-4c6d-9e0f-1a2b3c4d5e6f', createdAt: new Date().toISOString(), submission: signedLeadSubmission(keys, visitor) },
      context,
      keys,
    );

    for (const body of [mail.text, mail.html]) {
      expect(body).not.toMatch(/https?:\/\/spark-coach|www\.spark-login|spark-login\.example/);
      expect(body).toContain('hxxps://spark-coach[.]example/login');
      expect(body).toContain('www[.]spark-login[.]example');
      expect(body).not.toMatch(/file:\/\/|\\\\files|203\.0\.113\.7/);
      expect(body).toContain('203[.]0[.]113[.]7/login');
      expect(body).toContain('I run 5.5 km daily.');
    }
    // The product's own link and the lead's address stay as they are.
    expect(mail.text).toContain('Review it: https://spark.example/coach');
    expect(mail.text).toContain('E-mail: visitor@example.org');
  });
});

describe("the team's digest of an hour's leads past the cap", () => {
  it('counts every lead, names those it is given by address and role, and links the dashboard', () => {
    const named = Array.from({ length: 5 }, (_, index) => ({ email: `lead-${index}@example.org`, role: index % 2 ? 'coach' : 'client' }));
    const mail = leadAlertDigest({ windowStart: Date.parse('2026-03-04T13:00:00Z'), count: 8, named, perHour: 30 }, context);

    expect(mail.to).toBe('team@spark.example');
    expect(mail.subject).toBe('8 more leads between 13:00 and 14:00 UTC on Wed, 04 Mar 2026');
    expect(mail.text).toContain('8 more people expressed interest between 13:00 and 14:00 UTC on Wed, 04 Mar 2026.');
    expect(mail.text).toContain('E-mail: lead-4@example.org (client)');
    expect(mail.text).toContain('And 3 more, listed on the dashboard.');
    expect(mail.text).toContain('Review them: https://spark.example/coach');
  });
});
