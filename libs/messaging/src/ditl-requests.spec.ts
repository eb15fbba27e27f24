import { developmentSigningKeys } from '@spark/config';
import { ditlRequestRefusal, signedDitlRequest } from './ditl-requests';
import { signedLeadSubmission } from './lead-submissions';

const keys = developmentSigningKeys();
const now = Date.parse('2026-11-30T12:00:00Z');
const client = { email: 'maya@example.com', firstName: 'Maya' };
const requested = signedDitlRequest(keys, client, now);
const refused = 'no client asked for it at this address under this name';

describe('Day in the Life requests', () => {
  it('lets the client who asked have the e-mail, also when a coach regenerates it a year later', () => {
    expect(ditlRequestRefusal(keys, { ...client, requested }, now)).toBeUndefined();
    expect(ditlRequestRefusal(keys, { ...client, requested }, now + 365 * 24 * 3600_000)).toBeUndefined();
  });

  it.each([
    ['another address', { ...client, email: 'mallory@example.com', requested }],
    ['another greeting', { ...client, firstName: 'Claim your prize at evil.example', requested }],
    ['a request moved in time', { ...client, requested: { ...requested, approvedAt: now + 1 } }],
    [
      "a visitor's lead submission for the same address",
      { ...client, requested: signedLeadSubmission(keys, { email: client.email, role: 'client', interest: client.firstName }, now) },
    ],
  ])('refuses %s', (_case, mail) => {
    expect(ditlRequestRefusal(keys, mail, now)).toBe(refused);
  });
});
