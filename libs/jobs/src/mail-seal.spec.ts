import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { investorEmailJobSchema } from '@spark/contracts';
import { UnrecoverableError } from 'bullmq';
import { MailOpener, MailSealer } from './mail-seal';

const pair = () => generateKeyPairSync('x25519');
const link = 'https://spark.test/magic-link-auth#token=the-secret-token';
const signIn = (sealed: string, email = 'ann@example.com') => ({ email, expiresAt: '2026-11-30T04:00:00.000Z', purpose: 'sign-in' as const, sealed });

describe('sealed mail secrets', () => {
  const current = pair();

  it('seals what only the private key opens, for the job and recipient it names', async () => {
    const sealed = await new MailSealer(current.publicKey).seal('magic-link', 'ann@example.com', { link, code: '123456' });
    expect(sealed).not.toContain('the-secret-token');
    expect(sealed.split('.')).toHaveLength(5);

    const opened = await (await MailOpener.for([current.privateKey])).open('magic-link', signIn(sealed));
    expect(opened).toEqual({ email: 'ann@example.com', expiresAt: '2026-11-30T04:00:00.000Z', purpose: 'sign-in', link, code: '123456' });
  });

  it("seals a campaign's longest text within the job's bound", async () => {
    // Characters JSON escapes to six bytes, as many as an admin may send.
    const text = { subject: '\u0001'.repeat(200), body: '\u0001'.repeat(20_000) };
    const sealed = await new MailSealer(current.publicKey).seal('investor-email', 'ann@example.com', text);
    const job = {
      deliveryId: randomUUID(),
      campaignId: randomUUID(),
      email: 'ann@example.com',
      approval: { approvedAt: 1, signature: 'a'.repeat(43) },
      sealed,
    };
    expect(investorEmailJobSchema.parse(job)).toEqual(job);
    await expect((await MailOpener.for([current.privateKey])).open('investor-email', job)).resolves.toMatchObject(text);
  });

  it('opens a seal made for a retired key while that key is still listed', async () => {
    const retired = pair();
    const sealed = await new MailSealer(retired.publicKey).seal('data-export-ready', 'ann@example.com', { downloadUrl: 'https://s3.test/a.zip?sig=1' });
    const opener = await MailOpener.for([current.privateKey, retired.privateKey]);
    await expect(
      opener.open('data-export-ready', { userId: randomUUID(), email: 'ann@example.com', expiresAt: '2026-12-01T00:00:00.000Z', sealed }),
    ).resolves.toMatchObject({
      downloadUrl: 'https://s3.test/a.zip?sig=1',
    });
    await expect(
      (await MailOpener.for([current.privateKey])).open('data-export-ready', {
        userId: randomUUID(),
        email: 'ann@example.com',
        expiresAt: '2026-12-01T00:00:00.000Z',
        sealed,
      }),
    ).rejects.toThrow(/does not open \(sealed for a key the notifier does not hold\)/);
  });

  it('refuses, for good, a seal copied into a job for another recipient or of another kind', async () => {
    const sealed = await new MailSealer(current.publicKey).seal('magic-link', 'victim@example.com', { link, code: '123456' });
    const opener = await MailOpener.for([current.privateKey]);
    const copied = opener.open('magic-link', signIn(sealed, 'attacker@example.com'));
    await expect(copied).rejects.toThrow(UnrecoverableError);
    await expect(copied).rejects.toThrow(/sealed for another job or recipient/);
    await expect(opener.open('account-deletion-confirm', { email: 'victim@example.com', expiresAt: '2026-11-30T04:00:00.000Z', sealed })).rejects.toThrow(
      /sealed for another job or recipient/,
    );
  });

  it('refuses an altered seal without saying what it held', async () => {
    const sealed = await new MailSealer(current.publicKey).seal('spark-reminder', 'ann@example.com', { unsubscribeToken: 'the-unsubscribe-token' });
    const parts = sealed.split('.');
    const ciphertext = Buffer.from(parts[3] ?? '', 'base64url');
    ciphertext[0] = (ciphertext[0] ?? 0) ^ 1;
    const altered = [...parts.slice(0, 3), ciphertext.toString('base64url'), parts[4]].join('.');
    const opening = (await MailOpener.for([current.privateKey])).open('spark-reminder', {
      userId: randomUUID(),
      email: 'ann@example.com',
      localDate: '2026-01-01',
      sealed: altered,
    });
    await expect(opening).rejects.toThrow(UnrecoverableError);
    await expect(opening).rejects.toThrow(/does not open \(ERR_JWE_DECRYPTION_FAILED\)/);
  });

  it('seals only secrets its job allows', async () => {
    const sealer = new MailSealer(current.publicKey);
    await expect(sealer.seal('magic-link', 'ann@example.com', { link: 'not a url', code: '123456' })).rejects.toThrow(/Invalid URL/);
  });
});
