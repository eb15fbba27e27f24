import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
  coachNoteSchema,
  createLeadResponseSchema,
  investorCampaignSchema,
  issuedSessionSchema,
  publishPostResponseSchema,
  type PatternName,
  type ServiceName,
} from '@spark/contracts';
import { baseEnv, developmentSigningKeys, loadConfig } from '@spark/config';
import { requestStreamKey, signedCampaignApproval } from '@spark/messaging';
import { eventually, insertProgress, insertUser, killAndWait, lockWaiters } from '@spark/testing';
import { Client } from 'pg';
import { approvedInvite } from './invite-approval';
import { type ReplicaBed, openReplicaBed } from './replica-bed';
import { connectBus } from './sign-in-client';
import { leadCommand } from './lead-command';

/** How long the gateway waits for a service's answer (`BUS_TIMEOUT_MS` unset). */
const GATEWAY_BUDGET_MS = loadConfig(baseEnv, {}).BUS_TIMEOUT_MS;

/**
 * A replica that dies after its command committed and before it answered: the request is taken over by another
 * replica, which must answer with the first outcome instead of acting again. Each case holds the service's
 * ledger table locked so the handler waits right before recording, pauses Redis writes so its answer cannot
 * leave, lets it commit, and kills it; another replica, running already or started then, takes the entry over.
 */
describe('a command whose replica dies between commit and reply', () => {
  let bed: ReplicaBed;
  const count = async (sql: string, values: unknown[] = []) => Number((await bed.db.query(sql, values)).rows[0].n);
  const replica = (service: ServiceName) => bed.replica(`${service}-service/src/main`);

  beforeAll(async () => {
    bed = await openReplicaBed('replay', { requestTimeoutMs: 60_000, env: { AUTH_DEVELOPMENT_MODE: 'true', OUTBOX_POLL_MS: '200' } });
  });
  afterAll(async () => {
    await bed?.redis.call('CLIENT', 'UNPAUSE').catch(() => undefined);
    await bed?.close();
  });

  /**
   * Sends `pattern` to the running `replicas` of `service`, kills the one that took it once its outcome is committed,
   * and returns the answer. When no replica is left, a fresh one is started to take the request over.
   */
  async function answerAfterCrash(service: ServiceName, replicas: ChildProcess[], pattern: PatternName, request: unknown, budgetMs?: number): Promise<unknown> {
    const lock = new Client({ connectionString: bed.databaseUrl });
    await lock.connect();
    await lock.query('BEGIN');
    await lock.query(`LOCK TABLE "${service}".handled_requests IN EXCLUSIVE MODE`);
    const recorded = () => count(`SELECT count(*)::int AS n FROM "${service}".handled_requests WHERE pattern = $1`, [pattern]);
    const before = await recorded();
    const answer = bed.client.request(pattern, request, budgetMs);
    // Awaited by the caller; until then its failure must not count as unhandled.
    void answer.catch(() => undefined);
    await eventually(
      async () => (await lockWaiters(bed.db, `INSERT INTO "${service}".handled_requests`)) === 1,
      30_000,
      `${pattern} to wait before recording its outcome`,
    );
    // The entry's consumer is named after its process (host-pid-random).
    const [[, consumer]] = (await bed.redis.xpending(requestStreamKey(bed.env.BUS_PREFIX ?? '', service), service, '-', '+', 1)) as [string, string][];
    const doomed = replicas.find((candidate) => consumer?.includes(`-${candidate.pid}-`));
    if (!doomed) throw new Error(`no replica owns consumer ${consumer}`);
    await bed.redis.call('CLIENT', 'PAUSE', '60000', 'WRITE');
    try {
      await lock.query('COMMIT');
      await eventually(async () => (await recorded()) === before + 1, 30_000, `${pattern} to commit`);
      await killAndWait([doomed]);
    } finally {
      await bed.redis.call('CLIENT', 'UNPAUSE');
      await lock.end();
    }
    if (replicas.every((candidate) => candidate.exitCode !== null || candidate.signalCode !== null)) await replica(service);
    return answer;
  }

  it('leads.create: one lead and its two e-mails, and the person hears 201, not "already expressed interest"', async () => {
    const doomed = await replica('leads');
    const email = `replayed-${randomUUID()}@example.com`;
    const answer = await answerAfterCrash('leads', [doomed], 'leads.create', leadCommand(email));
    expect(createLeadResponseSchema.parse(answer).lead.email).toBe(email);
    expect(await count(`SELECT count(*)::int AS n FROM leads.leads WHERE email = $1`, [email])).toBe(1);
    expect(await count(`SELECT count(*)::int AS n FROM leads.outbox WHERE payload->>'email' = $1`, [email])).toBe(2);
  }, 120_000);

  it('auth.refresh: the rotated session is answered again and stays signed in', async () => {
    const doomed = await replica('auth');
    const leads = await connectBus(bed.env, 'leads');
    const invited = await leads.bus
      .request('auth.invite', approvedInvite({ email: `refresh-${randomUUID()}@example.com`, role: 'client' }))
      .finally(leads.close);
    const token = new URLSearchParams(new URL(invited.magicLink ?? '').hash.slice(1)).get('token');
    const signedIn = issuedSessionSchema.parse(await bed.client.request('auth.redeem', { token }));
    const answer = issuedSessionSchema.parse(await answerAfterCrash('auth', [doomed], 'auth.refresh', { refreshToken: signedIn.refreshToken }));
    expect(answer.refreshToken).not.toBe(signedIn.refreshToken);
    // A replay that rotated again would have revoked the family: the answered token would be refused.
    const next = issuedSessionSchema.parse(await bed.client.request('auth.refresh', { refreshToken: answer.refreshToken }));
    expect(next.session.user.id).toBe(invited.userId);
  }, 120_000);

  it('investor.send-email, within the time the gateway waits: one campaign, one e-mail per investor, and the admin hears it is queued', async () => {
    // Two replicas, as deployed: the one left takes the request over while the gateway still waits for its answer.
    const replicas = await Promise.all([replica('investor'), replica('investor')]);
    const email = `investor-${randomUUID()}@example.com`;
    await bed.client.request('investor.register', { email });
    const campaign = { emails: [email], subject: 'Quarterly update', body: 'Numbers inside.' };
    // As the gateway sends it, with the admin's approval for the notifier.
    const approval = signedCampaignApproval(developmentSigningKeys(), campaign);
    const answered = answerAfterCrash('investor', replicas, 'investor.send-email', { ...campaign, approval }, GATEWAY_BUDGET_MS);
    // Committed whatever the admin is told: a 503 here would have them send it again.
    await answered.catch(() => undefined);
    expect(await count(`SELECT count(*)::int AS n FROM investor.campaigns`)).toBe(1);
    expect(await count(`SELECT count(*)::int AS n FROM investor.campaign_deliveries`)).toBe(1);
    expect(await count(`SELECT count(*)::int AS n FROM investor.outbox`)).toBe(1);
    const answer = investorCampaignSchema.parse(await answered);
    expect(answer).toMatchObject({ total: 1, sent: 0, failed: 0, pending: 1 });
  }, 120_000);

  it('content.publish-post: one post', async () => {
    const doomed = await replica('content');
    const title = `Replayed ${randomUUID()}`;
    const answer = publishPostResponseSchema.parse(
      await answerAfterCrash('content', [doomed], 'content.publish-post', { markdown: `# ${title}\n\nWritten once.`, authorId: randomUUID() }),
    );
    expect(answer.success).toBe(true);
    expect(await count(`SELECT count(*)::int AS n FROM content.posts WHERE title = $1`, [title])).toBe(1);
  }, 120_000);

  it('progress.add-coach-note: one note', async () => {
    const doomed = await replica('progress');
    const email = `noted-${randomUUID()}@example.com`;
    const userId = await insertUser(bed.db, { email });
    await insertProgress(bed.db, { userId, email });
    const coachId = await insertUser(bed.db, { email: `coach-${randomUUID()}@example.com`, role: 'coach' });
    const answer = coachNoteSchema.parse(
      await answerAfterCrash('progress', [doomed], 'progress.add-coach-note', {
        userId,
        coachId,
        message: 'Great week: keep the morning walk.',
        isPinned: true,
      }),
    );
    expect(answer.message).toBe('Great week: keep the morning walk.');
    expect(await count(`SELECT count(*)::int AS n FROM progress.coach_notes WHERE user_id = $1`, [userId])).toBe(1);
  }, 120_000);
});
