import { randomUUID } from 'node:crypto';
import { freshSigningKeys } from '@spark/config';
import { confirmAccountDeletionResponseSchema, QUEUES } from '@spark/contracts';
import { JobQueues } from '@spark/jobs';
import { startService } from '@spark/service-runtime';
import { eventually, outlastDroppedConnections, type PrivateRedis, startPrivateRedis } from '@spark/testing';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import { leadsService } from '../../leads-service/src/service';
import { createSignedInUser, TEST_JWT_SECRET } from './ditl-auth';
import { allServices, type InProcessStack, startInProcessStack } from './in-process-stack';
import { untilIdle } from './until-idle';

/**
 * A part of an account deletion whose job failed for good is kept only in Redis, and its outbox row is counted as
 * finished. When Redis then loses its data later than the relay's recovery looks back, nothing in Redis or in the outbox
 * still asks for that part: the deletion's own table has to.
 */
describe('an account deletion part whose failed job Redis lost', () => {
  let redis: PrivateRedis | undefined;
  let stack: InProcessStack;
  let db: Client;
  let jobs: JobQueues;
  let stopLeads: (() => Promise<void>) | undefined;
  // Filled in before the stack starts: every app of the stack connects to this Redis of the test's own.
  const ownRedis = { adminUrl: '', urlOf: () => ownRedis.adminUrl };

  const startLeads = async (env: NodeJS.ProcessEnv = {}) => {
    stopLeads = await startService({ ...leadsService, env: { ...stack.env, ...env } }, false);
  };
  const leadsPartDone = async (deletionId: string) => {
    const { rows } = await db.query<{ done: boolean }>(
      `SELECT done_at IS NOT NULL AS done FROM auth.account_deletion_parts WHERE deletion_id = $1 AND part = 'leads'`,
      [deletionId],
    );
    return rows[0]?.done;
  };

  beforeAll(async () => {
    redis = await startPrivateRedis();
    ownRedis.adminUrl = redis.url;
    // Reconciled often, so the outbox counts the failed job as finished within the test, as it would in production.
    stack = await startInProcessStack({
      withNotifier: true,
      services: allServices.filter((service) => service.name !== 'leads'),
      redis: ownRedis,
      env: { JWT_SECRET: TEST_JWT_SECRET, OUTBOX_RECONCILE_MS: '300' },
    });
    db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
    jobs = new JobQueues(new Redis(ownRedis.adminUrl, { maxRetriesPerRequest: null }), stack.env.BUS_PREFIX ?? '');
  }, 60_000);
  afterAll(async () => {
    await stopLeads?.();
    await jobs?.close();
    jobs?.connection.disconnect();
    await db?.end();
    await stack?.stop();
    await redis?.stop();
    await outlastDroppedConnections();
  });

  const confirmedDeletionOf = async (email: string) => {
    const client = await createSignedInUser(db, email);
    const send = (path: string, body?: unknown) =>
      fetch(`${stack.baseUrl}${path}`, {
        method: 'POST',
        headers: body ? { 'content-type': 'application/json' } : { authorization: `Bearer ${client.token}` },
        body: body ? JSON.stringify(body) : undefined,
      });
    expect((await send('/api/me/account-deletion')).status).toBe(202);
    const mail = await eventually(
      () => stack.smtp.messages.find((sent) => sent.to.includes(email) && sent.subject === 'Confirm deleting your Spark account'),
      20_000,
      'the confirmation e-mail',
    );
    const token = /\/account\/delete#token=([\w-]+)/.exec(mail.text)?.[1];
    const confirmed = await send('/api/account-deletion/confirm', { token });
    expect(confirmed.status).toBe(200);
    return confirmAccountDeletionResponseSchema.parse(await confirmed.json()).deletionId;
  };

  it('is erased once Redis lost the job that failed for good, later than the relay recovers lost jobs', async () => {
    const email = 'lost.part@spark.test';
    // A leads-service deployed with keys that do not match the auth-service's: it fails the part's job for good on its
    // first attempt, as a part does overnight once its retries are spent (a bucket misconfigured, say).
    await startLeads({ SIGNING_KEYS: freshSigningKeys().find((keys) => keys.app === 'leads')?.value });
    await db.query(`INSERT INTO leads.leads (id, email, role, full_name, user_created) VALUES ($1, $2, 'client', 'Ines Lost', true)`, [randomUUID(), email]);
    const deletionId = await confirmedDeletionOf(email);
    const {
      rows: [row],
    } = await db.query<{ id: string }>(`SELECT id FROM auth.outbox WHERE queue = $1 AND payload->>'deletionId' = $2`, [QUEUES.deletionLeads, deletionId]);
    if (!row) throw new Error('the confirmation queued no leads part');
    const leadsQueue = jobs.queue(QUEUES.deletionLeads);
    await eventually(async () => (await leadsQueue.getJobState(row.id)) === 'failed', 20_000, 'the leads part to fail for good');
    await eventually(
      async () => (await db.query(`SELECT 1 FROM auth.outbox WHERE id = $1 AND confirmed_at IS NOT NULL`, [row.id])).rowCount === 1,
      20_000,
      'the outbox to count the failed job as finished',
    );

    // The cause is fixed; nobody has retried the job from the queue dashboard yet.
    await stopLeads?.();
    await startLeads();
    expect(await leadsPartDone(deletionId)).toBe(false);
    // Longer than the relay's recovery looks back goes by, then Redis is emptied.
    await db.query(`UPDATE auth.outbox SET created_at = created_at - interval '25 hours', dispatched_at = dispatched_at - interval '25 hours' WHERE id = $1`, [
      row.id,
    ]);
    await jobs.connection.flushall();

    // The sweep's next run. (Its schedule, gone with the data, comes back by itself: repeating-job.int-spec.ts.)
    await jobs.queue(QUEUES.deletionPartsSweep).add('resend-open-deletion-parts', {});
    await eventually(() => leadsPartDone(deletionId), 30_000, 'the leads part to be erased after Redis lost its failed job');
    await untilIdle(stack);
    // Queued again under the id it had: the one job of the part, now completed.
    expect(await leadsQueue.getJobState(row.id)).toBe('completed');
    const lead = await db.query(`SELECT email, full_name FROM leads.leads WHERE full_name = 'Ines Lost' OR email = $1`, [email]);
    expect(lead.rows).toEqual([]);
    const record = await db.query(`SELECT completed_at IS NOT NULL AS completed, email FROM auth.account_deletions WHERE id = $1`, [deletionId]);
    expect(record.rows).toEqual([{ completed: true, email: null }]);
  }, 240_000);
});
