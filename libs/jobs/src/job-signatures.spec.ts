import { createSecretKey, randomBytes } from 'node:crypto';
import { developmentSigningKeys } from '@spark/config';
import { signedLeadSubmission } from '@spark/messaging';
import { type Job, UnrecoverableError } from 'bullmq';
import type { JobRequest } from './job-queues';
import { signedJobData, verifiedJobData } from './job-signatures';

const keys = developmentSigningKeys();
const lead: JobRequest = {
  queue: 'mail',
  name: 'lead-confirmation',
  data: {
    leadId: '7c1d6f8e-1a2b-4c3d-8e9f-0a1b2c3d4e5f',
    email: 'ann@example.com',
    role: 'client',
    interest: null,
    submission: signedLeadSubmission(keys, { email: 'ann@example.com', role: 'client' }),
  },
};
/** A job as the worker gets it: its data through BullMQ's JSON. */
const queued = (name: string, id: string, data: unknown) => ({ name, id, data: JSON.parse(JSON.stringify(data)) }) as Job;

describe('job signatures', () => {
  it('hands the worker the payload its producer signed, without the signature', () => {
    const data = signedJobData(keys, lead, 'job-1');
    expect(data).toEqual({ ...lead.data, signature: expect.stringMatching(/^[\w-]{43}$/) });
    expect(verifiedJobData(keys, 'mail', queued('lead-confirmation', 'job-1', data))).toEqual(lead.data);
  });

  it.each([
    ['under another job id', (data: Record<string, unknown>) => queued('lead-confirmation', 'job-2', data)],
    ['under another name', (data: Record<string, unknown>) => queued('lead-alert', 'job-1', data)],
    ['with its address changed', (data: Record<string, unknown>) => queued('lead-confirmation', 'job-1', { ...data, email: 'eve@example.com' })],
    ['without its signature', ({ signature: _signature, ...data }: Record<string, unknown>) => queued('lead-confirmation', 'job-1', data)],
  ])('fails a job for good %s', (_case, alter) => {
    const job = alter(signedJobData(keys, lead, 'job-1') as Record<string, unknown>);
    expect(() => verifiedJobData(keys, 'mail', job)).toThrow(UnrecoverableError);
    expect(() => verifiedJobData(keys, 'mail', job)).toThrow(`mail/${job.name}: not signed by leads`);
  });

  it("checks a job with its producer's key, not another producer's of the same queue", () => {
    const leadsKeys = new Map([['job:mail/investor', keys.get('job:mail/leads') ?? []]]);
    const investorEmail: JobRequest = {
      queue: 'mail',
      name: 'investor-email',
      data: {
        deliveryId: '7c1d6f8e-1a2b-4c3d-8e9f-0a1b2c3d4e5f',
        campaignId: '7c1d6f8e-1a2b-4c3d-8e9f-0a1b2c3d4e5e',
        email: 'ann@example.com',
        approval: { approvedAt: 1_764_500_000_000, signature: 'a'.repeat(43) },
        sealed: 'header.key.iv.text.tag',
      },
    };
    const job = queued('investor-email', 'job-1', signedJobData(leadsKeys, investorEmail, 'job-1'));
    expect(() => verifiedJobData(keys, 'mail', job)).toThrow('mail/investor-email: not signed by investor');
  });

  it('verifies with any key listed for the pair, so a key rotates without failing queued jobs', () => {
    const retired = createSecretKey(randomBytes(32));
    const current = createSecretKey(randomBytes(32));
    const job = queued('lead-confirmation', 'job-1', signedJobData(new Map([['job:mail/leads', [retired]]]), lead, 'job-1'));
    expect(verifiedJobData(new Map([['job:mail/leads', [current, retired]]]), 'mail', job)).toEqual(lead.data);
    expect(() => verifiedJobData(new Map([['job:mail/leads', [current]]]), 'mail', job)).toThrow(/not signed by leads/);
  });

  it("leaves the scheduler's jobs unsigned, and refuses to sign a job without its key", () => {
    expect(verifiedJobData(new Map(), 'reminders', queued('send-due-reminders', 'repeat:1', {}))).toEqual({});
    expect(() => signedJobData(new Map(), lead, 'job-1')).toThrow('No key to sign mail/lead-confirmation as leads (SIGNING_KEYS)');
  });
});
