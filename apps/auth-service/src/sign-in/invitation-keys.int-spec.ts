import { randomBytes, randomUUID } from 'node:crypto';
import { authEnv, developmentSigningKeys, loadConfig } from '@spark/config';
import { deletionParts, inviteRequestSchema, type PayloadOf } from '@spark/contracts';
import { MailSealer } from '@spark/jobs';
import { signedInviteApproval } from '@spark/messaging';
import { openMigrated } from '@spark/persistence';
import { createTestDatabase, eventually, lockWaiters, type TestDatabase, testRedisUrl } from '@spark/testing';
import { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import { AccountDeletionRepository } from '../account-deletion/account-deletion.repository';
import { authMigrations } from '../migrations';
import { SessionIssuer } from '../sessions/session-issuer';
import { MailCooldown } from './mail-cooldown';
import { SignInRepository } from './sign-in.repository';
import { MAGIC_LINK_TTL_MS, SignInService } from './sign-in.service';

const keys = developmentSigningKeys();

/** `auth.invite` as the leads-service sends it, with the approval the gateway signed for a coach's click, as received. */
const invitation = (email: string, invitationKey?: string, approvedAt = Date.now()): PayloadOf<'auth.invite'> =>
  inviteRequestSchema.parse({
    email,
    role: 'client',
    next: 'ditl-welcome',
    approval: signedInviteApproval(keys, { actorId: randomUUID(), actorRole: 'coach', email, role: 'client', approvedAt }),
    invitationKey,
  });
const tokenOf = (magicLink: string | undefined) => new URLSearchParams(new URL(magicLink ?? 'http://none.invalid').hash.slice(1)).get('token') ?? '';

describe('invitations keyed on their lead (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let redis: Redis;
  let signIn: SignInService;
  // The auth-service's clock, moved back to make an invitation whose link has lapsed by now.
  let clockOffsetMs = 0;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await openMigrated({ url: database.url, schema: 'auth', migrations: authMigrations });
    // Invitations take no cooldown: the client is never used, so it never connects.
    redis = new Redis(await testRedisUrl(), { lazyConnect: true });
    const secret = 'invitation-keys-secret-0123456789abcdef';
    signIn = new SignInService(
      new SignInRepository(dataSource),
      new MailCooldown(redis, 'unused'),
      new SessionIssuer(secret),
      { kick: () => undefined },
      {
        publicUrl: 'http://spark.test',
        codePepper: secret,
        developmentMode: true,
        sealer: new MailSealer(loadConfig(authEnv, {}).MAIL_SEAL_PUBLIC_KEY),
        signingKeys: keys,
        now: () => new Date(Date.now() + clockOffsetMs),
      },
    );
  });
  afterAll(async () => {
    redis.disconnect();
    await dataSource?.destroy();
    await database?.drop();
  });

  const newEmail = (label: string) => `${label}-${randomUUID()}@example.com`;
  /** A deletion `userId` asked for, its confirmation's token not yet spent. */
  const deletionToConfirm = async (userId: string) => {
    const deletions = new AccountDeletionRepository(dataSource);
    const tokenHash = randomBytes(32);
    await deletions.addConfirmation(userId, { tokenHash, expiresAt: new Date(Date.now() + 60_000) }, async (address) => ({
      queue: 'mail',
      name: 'code-sign-in-locked',
      data: { email: address },
    }));
    return { deletions, tokenHash };
  };
  const count = async (sql: string, values: unknown[]) => Number(((await dataSource.query(sql, values)) as { n: number }[])[0]?.n);
  const mailJobsTo = (email: string) => count(`SELECT count(*)::int AS n FROM auth.outbox WHERE payload->>'email' = $1`, [email]);
  const openLinksOf = (email: string) =>
    count(`SELECT count(*)::int AS n FROM auth.magic_links WHERE email = $1 AND used_at IS NULL AND expires_at > now()`, [email]);
  const keysOf = (userId: string) => count(`SELECT count(*)::int AS n FROM auth.invitation_keys WHERE user_id = $1`, [userId]);

  it("answers the same person's invitation asked again under its key with the first's account, and no new link or e-mail", async () => {
    const email = newEmail('approved');
    const leadKey = `lead:${randomUUID()}`;
    const first = await signIn.invite(invitation(email, leadKey));
    const again = await signIn.invite(invitation(email, leadKey));
    expect(first.magicLink).toMatch(/#token=/);
    expect(again).toEqual({ userId: first.userId, developmentMode: true });
    expect({ mailJobs: await mailJobsTo(email), openLinks: await openLinksOf(email) }).toEqual({ mailJobs: 1, openLinks: 1 });
    expect(await signIn.linkInfo({ token: tokenOf(first.magicLink) })).toEqual({ email });
  });

  it('sends a fresh link to an invitation asked again under its key once the first link has lapsed', async () => {
    const email = newEmail('lapsed');
    const leadKey = `lead:${randomUUID()}`;
    clockOffsetMs = -2 * MAGIC_LINK_TTL_MS;
    const first = await signIn.invite(invitation(email, leadKey, Date.now() + clockOffsetMs)).finally(() => (clockOffsetMs = 0));
    expect(await openLinksOf(email)).toBe(0);

    const again = await signIn.invite(invitation(email, leadKey));
    expect(again).toMatchObject({ userId: first.userId, magicLink: expect.stringMatching(/#token=/) });
    expect({ mailJobs: await mailJobsTo(email), openLinks: await openLinksOf(email) }).toEqual({ mailJobs: 2, openLinks: 1 });
    // Asked once more while that new link is open, the key answers it again.
    expect(await signIn.invite(invitation(email, leadKey))).toEqual({ userId: first.userId, developmentMode: true });
    expect(await mailJobsTo(email)).toBe(2);
  });

  it('sends a fresh link to an invitation without a key (a resend) and to another key of the same person', async () => {
    const email = newEmail('resent');
    const first = await signIn.invite(invitation(email, `lead:${randomUUID()}`));
    const resent = await signIn.invite(invitation(email));
    const otherKey = await signIn.invite(invitation(email, `lead:${randomUUID()}`));
    for (const answer of [resent, otherKey]) expect(answer).toMatchObject({ userId: first.userId, magicLink: expect.stringMatching(/#token=/) });
    // Each new link voids the one before it, as every sign-in link does.
    expect({ mailJobs: await mailJobsTo(email), openLinks: await openLinksOf(email) }).toEqual({ mailJobs: 3, openLinks: 1 });
  });

  it("keeps a key to its person: another address under the same key is invited, so no key can hold back another person's e-mail", async () => {
    const sharedKey = `lead:${randomUUID()}`;
    const [ann, bob] = [newEmail('ann'), newEmail('bob')];
    await signIn.invite(invitation(ann, sharedKey));
    const bobs = await signIn.invite(invitation(bob, sharedKey));
    expect(bobs.magicLink).toMatch(/#token=/);
    expect([await mailJobsTo(ann), await mailJobsTo(bob)]).toEqual([1, 1]);
  });

  it('makes one link of two invitations under the same lapsed key at once', async () => {
    const email = newEmail('lapsed-raced');
    const leadKey = `lead:${randomUUID()}`;
    clockOffsetMs = -2 * MAGIC_LINK_TTL_MS;
    await signIn.invite(invitation(email, leadKey, Date.now() + clockOffsetMs)).finally(() => (clockOffsetMs = 0));
    const answers = await Promise.all([signIn.invite(invitation(email, leadKey)), signIn.invite(invitation(email, leadKey))]);
    expect(answers.filter((answer) => answer.magicLink)).toHaveLength(1);
    expect({ mailJobs: await mailJobsTo(email), openLinks: await openLinksOf(email) }).toEqual({ mailJobs: 2, openLinks: 1 });
  });

  it('makes one link of two invitations under the same key at once', async () => {
    const email = newEmail('raced');
    const leadKey = `lead:${randomUUID()}`;
    const answers = await Promise.all([signIn.invite(invitation(email, leadKey)), signIn.invite(invitation(email, leadKey))]);
    expect(new Set(answers.map((answer) => answer.userId)).size).toBe(1);
    expect(answers.filter((answer) => answer.magicLink)).toHaveLength(1);
    expect({ mailJobs: await mailJobsTo(email), openLinks: await openLinksOf(email) }).toEqual({ mailJobs: 1, openLinks: 1 });
  });

  it("forgets a person's keys with their erased account, so their address invited again under the same key gets a new link", async () => {
    const email = newEmail('erased');
    const leadKey = `lead:${randomUUID()}`;
    const before = await signIn.invite(invitation(email, leadKey));
    expect(await keysOf(before.userId)).toBe(1);

    const { deletions, tokenHash } = await deletionToConfirm(before.userId);
    const deletionId = randomUUID();
    expect(await deletions.confirm(tokenHash, deletionId, async () => {})).toMatchObject({ outcome: 'erased', userId: before.userId });
    expect(await keysOf(before.userId)).toBe(0);
    // While the other services' parts run the address is refused; once they are done it may be invited again.
    await expect(signIn.invite(invitation(email, leadKey))).rejects.toMatchObject({ code: 'CONFLICT' });
    for (const part of deletionParts) await deletions.markPartDone(deletionId, part);

    // A lead re-submitted after the erasure has a new id; even the old key finds nothing of the erased account.
    const after = await signIn.invite(invitation(email, leadKey));
    expect(after.userId).not.toBe(before.userId);
    expect(after.magicLink).toMatch(/#token=/);
    expect({ mailJobs: await mailJobsTo(email), keys: await keysOf(after.userId) }).toEqual({ mailJobs: 1, keys: 1 });
  });

  it('makes no account for an address whose deletion commits while the invitation waits for it', async () => {
    const email = newEmail('confirming');
    const before = await signIn.invite(invitation(email, `lead:${randomUUID()}`));
    const { deletions, tokenHash } = await deletionToConfirm(before.userId);

    // The coach adds the person again while their confirmation is on its way to commit.
    let invitedMeanwhile: Promise<unknown> = Promise.resolve();
    await deletions.confirm(tokenHash, randomUUID(), async () => {
      invitedMeanwhile = signIn.invite(invitation(email, 'add-client')).catch((error: unknown) => error);
      await eventually(async () => (await lockWaiters(dataSource, 'auth.users')) > 0, 5_000, 'the invitation to wait for the confirmation');
    });
    expect(await invitedMeanwhile).toMatchObject({ code: 'CONFLICT' });
    expect(await dataSource.query('SELECT id FROM auth.users WHERE email = $1', [email])).toEqual([]);
  });
});
