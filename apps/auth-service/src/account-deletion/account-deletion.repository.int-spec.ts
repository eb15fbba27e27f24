import { randomBytes, randomUUID } from 'node:crypto';
import { authEnv, loadConfig } from '@spark/config';
import { type AuditEvent, deletionParts, deletionQueues, QUEUES } from '@spark/contracts';
import { type JobRequest, MailSealer, outboxInsertSql, outboxRows } from '@spark/jobs';
import { openMigrated } from '@spark/persistence';
import { createTestDatabase, insertUser, type TestDatabase, useMigratedDatabase } from '@spark/testing';
import type { DataSource } from 'typeorm';
import { AuditRepository } from '../audit/audit.repository';
import { authMigrations } from '../migrations';
import { AccountDeletionRepository } from './account-deletion.repository';

// Seals for the notifier of a test stack, which opens with the development key.
const sealer = new MailSealer(loadConfig(authEnv, {}).MAIL_SEAL_PUBLIC_KEY);

// The deleted client's address is the end of the other person's: a search for it inside text finds both.
const DELETED_EMAIL = 'ann@example.com';
const OTHER_EMAIL = 'joann@example.com';

type AuditRow = { id: string; actor_id: string; actor_email: string; target_id: string | null; target_label: string | null };
type OutboxRow = { id: string; payload: unknown };

const auditEvent = (
  actor: { id: string; email: string; role?: AuditEvent['actor']['role'] },
  action: AuditEvent['action'],
  target: AuditEvent['target'],
): AuditEvent => ({
  id: randomUUID(),
  correlationId: randomUUID(),
  at: new Date().toISOString(),
  actor: { role: 'coach', ...actor },
  action,
  target,
  clientIp: '127.0.0.1',
  outcome: 'succeeded',
  details: {},
});

describe('AccountDeletionRepository.confirm against a real PostgreSQL: only the deleted account is erased', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let deletions: AccountDeletionRepository;
  let audit: AuditRepository;
  let deletedId: string;
  let deletionId: string;
  let otherEvents: AuditEvent[];
  let deletedLead: AuditEvent;
  let deletedClient: AuditEvent;
  let othersAudit: AuditRow[];
  let othersJobs: OutboxRow[];

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await openMigrated({ url: database.url, schema: 'auth', migrations: authMigrations });
    deletions = new AccountDeletionRepository(dataSource);
    audit = new AuditRepository(dataSource);
    await erasedBesideOthers();
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  const queue = async (jobs: JobRequest[]) => dataSource.query(outboxInsertSql('auth', 1), outboxRows(jobs));
  const magicLink = async (email: string): Promise<JobRequest> => ({
    queue: 'mail',
    name: 'magic-link',
    data: {
      email,
      expiresAt: new Date().toISOString(),
      purpose: 'sign-in',
      sealed: await sealer.seal('magic-link', email, { link: 'https://spark.test/sign-in#token=abc', code: '123456' }),
    },
  });
  const auditRows = (): Promise<AuditRow[]> => dataSource.query(`SELECT id, actor_id, actor_email, target_id, target_label FROM auth.audit_events ORDER BY id`);
  const outbox = (): Promise<OutboxRow[]> => dataSource.query(`SELECT id, payload FROM auth.outbox ORDER BY id`);

  /** The deleted client's audit mentions and jobs beside another person's, then the deletion confirmed. */
  async function erasedBesideOthers() {
    const coach = { id: await insertUser(dataSource, { email: 'coach@example.com', role: 'coach' }), email: 'coach@example.com' };
    const other = { id: await insertUser(dataSource, { email: OTHER_EMAIL, role: 'coach' }), email: OTHER_EMAIL };
    deletedId = await insertUser(dataSource, { email: DELETED_EMAIL });

    otherEvents = [
      auditEvent(coach, 'lead.approve', { type: 'lead', id: randomUUID(), label: OTHER_EMAIL }),
      auditEvent(coach, 'user.role-change', { type: 'user', id: other.id, label: OTHER_EMAIL }),
      auditEvent(other, 'client.update', { type: 'client', id: randomUUID(), label: 'someone@example.com' }),
    ];
    deletedLead = auditEvent(coach, 'lead.approve', { type: 'lead', id: randomUUID(), label: DELETED_EMAIL });
    deletedClient = auditEvent(coach, 'client.data-export', { type: 'client', id: deletedId, label: null });
    for (const event of [...otherEvents, deletedLead, deletedClient]) await audit.insert(event);

    await queue([
      await magicLink(OTHER_EMAIL),
      { queue: 'mail', name: 'code-sign-in-locked', data: { email: OTHER_EMAIL } },
      {
        queue: 'mail',
        name: 'investor-email',
        data: {
          deliveryId: randomUUID(),
          campaignId: randomUUID(),
          email: OTHER_EMAIL,
          approval: { approvedAt: Date.now(), signature: 'a'.repeat(43) },
          sealed: await sealer.seal('investor-email', OTHER_EMAIL, { subject: 'Our news', body: `Ask ${DELETED_EMAIL} about it` }),
        },
      },
    ]);
    othersJobs = await outbox();
    await queue([
      await magicLink(DELETED_EMAIL),
      {
        queue: 'push',
        name: 'spark-reminder-push',
        data: {
          subscription: { endpoint: 'https://push.example.com/send/device', keys: { p256dh: 'cDI1NmRo', auth: 'YXV0aA' } },
          firstName: 'Ann',
          userId: deletedId,
          localDate: '2026-01-01',
        },
      },
    ]);
    const tokenHash = randomBytes(32);
    await deletions.addConfirmation(deletedId, { tokenHash, expiresAt: new Date(Date.now() + 60_000) }, (email) => magicLink(email));
    othersAudit = (await auditRows()).filter((row) => otherEvents.some((event) => event.id === row.id));

    deletionId = randomUUID();
    const confirmed = await deletions.confirm(tokenHash, deletionId, async () => {});
    expect(confirmed).toMatchObject({ outcome: 'erased', userId: deletedId });
  }

  it("anonymises the client's own audit mentions, leaving another person's whose address contains theirs", async () => {
    const after = await auditRows();
    expect(after.filter((row) => otherEvents.some((event) => event.id === row.id))).toEqual(othersAudit);
    expect(after.find((row) => row.id === deletedLead.id)).toMatchObject({ target_id: deletedLead.target.id, target_label: 'Deleted account' });
    expect(after.find((row) => row.id === deletedClient.id)).toMatchObject({ target_id: deletionId, target_label: 'Deleted account' });
  });

  it("refuses, even while an account's erasure is on, a change to an entry that is not about that account", async () => {
    const [othersEntry] = othersAudit;
    const [othersActorEntry] = otherEvents.filter((event) => event.actor.email === OTHER_EMAIL);
    const changeWhileErasing = (change: string, id: string | undefined) =>
      dataSource.transaction(async (manager) => {
        await manager.query(`SELECT set_config('spark.erasing_account', 'on', true)`);
        await manager.query(`UPDATE auth.audit_events SET ${change} WHERE id = $1`, [id]);
      });
    // The deleted client's deletion is still unfinished (the other services' parts are pending): its exception is open.
    await expect(changeWhileErasing(`target_label = 'Deleted account'`, othersEntry?.id)).rejects.toThrow('append-only');
    await expect(changeWhileErasing(`target_id = '${deletionId}'`, othersEntry?.id)).rejects.toThrow('append-only');
    await expect(changeWhileErasing(`actor_email = 'Deleted account'`, othersActorEntry?.id)).rejects.toThrow('append-only');
    await expect(changeWhileErasing(`actor_id = '${deletionId}'`, othersActorEntry?.id)).rejects.toThrow('append-only');
    // Nor may the deleted client's own entry be given any other value than the erasure's.
    await expect(changeWhileErasing(`target_label = 'someone else'`, deletedLead.id)).rejects.toThrow('append-only');
    expect((await auditRows()).filter((row) => otherEvents.some((event) => event.id === row.id))).toEqual(othersAudit);
  });

  it("deletes the client's own jobs, leaving another person's unsent e-mails whose address or text contains theirs", async () => {
    const jobsAfter = await outbox();
    expect(jobsAfter.filter((row) => othersJobs.some((job) => job.id === row.id))).toEqual(othersJobs);
    const remaining = jobsAfter.filter((row) => !othersJobs.some((job) => job.id === row.id)).map((row) => row.payload);
    // Only the erase jobs the confirmation queues for the other services remain, naming the deletion and no one.
    expect(remaining).toEqual(Object.values(deletionQueues).map(() => ({ deletionId })));
  });
});

describe('the audit log while an account is being erased: what is recorded about it is stored as the confirmation left its entries', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let deletions: AccountDeletionRepository;
  let audit: AuditRepository;
  let coach: { id: string; email: string };

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await openMigrated({ url: database.url, schema: 'auth', migrations: authMigrations });
    deletions = new AccountDeletionRepository(dataSource);
    audit = new AuditRepository(dataSource);
    coach = { id: await insertUser(dataSource, { email: 'coach@example.com', role: 'coach' }), email: 'coach@example.com' };
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  /** The hash of a stored confirmation link of the user's. */
  const askedToDelete = async (userId: string) => {
    const tokenHash = randomBytes(32);
    const mailJob = async (email: string): Promise<JobRequest> => ({ queue: 'mail', name: 'code-sign-in-locked', data: { email } });
    await deletions.addConfirmation(userId, { tokenHash, expiresAt: new Date(Date.now() + 60_000) }, mailJob);
    return tokenHash;
  };
  /** A client whose deletion is confirmed: the auth part done, every other part still to run. */
  async function confirmedDeletionOf(email: string) {
    const userId = await insertUser(dataSource, { email });
    const deletionId = randomUUID();
    expect(await deletions.confirm(await askedToDelete(userId), deletionId, async () => {})).toMatchObject({ outcome: 'erased' });
    return { userId, email, deletionId };
  }
  const completeDeletion = async (deletionId: string) => {
    for (const part of deletionParts) await deletions.markPartDone(deletionId, part);
  };
  const stored = async (event: AuditEvent): Promise<Omit<AuditRow, 'id'> | undefined> =>
    ((await dataSource.query(`SELECT actor_id, actor_email, target_id, target_label FROM auth.audit_events WHERE id = $1`, [event.id])) as AuditRow[])[0];

  it("stores a coach's later action on the client, a lead labelled with their address in capitals and their own refused attempt without them", async () => {
    const ben = await confirmedDeletionOf('ben@example.com');
    const update = auditEvent(coach, 'client.update', { type: 'client', id: ben.userId, label: ben.email });
    const lead = auditEvent(coach, 'lead.resend', { type: 'lead', id: randomUUID(), label: 'Ben@Example.COM' });
    const ownAttempt = auditEvent({ id: ben.userId, email: ben.email, role: 'client' }, 'client.nudge', { type: 'client', id: randomUUID(), label: null });
    for (const event of [update, lead, ownAttempt]) expect(await audit.insert(event)).toBe(true);
    // The same event delivered again stores nothing more.
    expect(await audit.insert(update)).toBe(false);

    expect(await stored(update)).toEqual({ actor_id: coach.id, actor_email: coach.email, target_id: ben.deletionId, target_label: 'Deleted account' });
    expect(await stored(lead)).toEqual({ actor_id: coach.id, actor_email: coach.email, target_id: lead.target.id, target_label: 'Deleted account' });
    expect(await stored(ownAttempt)).toEqual({
      actor_id: ben.deletionId,
      actor_email: 'Deleted account',
      target_id: ownAttempt.target.id,
      target_label: null,
    });
  });

  it('stores as they come the events of another person, whose address contains theirs, and of a client whose deletion is not confirmed', async () => {
    await confirmedDeletionOf('cy@example.com');
    const staying = { id: await insertUser(dataSource, { email: 'lucy@example.com' }), email: 'lucy@example.com' };
    const events = [
      auditEvent(coach, 'client.update', { type: 'client', id: staying.id, label: staying.email }),
      auditEvent(coach, 'lead.approve', { type: 'lead', id: randomUUID(), label: 'Lucy@Example.com' }),
      auditEvent({ ...staying, role: 'client' }, 'client.nudge', { type: 'client', id: randomUUID(), label: null }),
    ];
    for (const event of events) await audit.insert(event);

    for (const event of events) {
      expect(await stored(event)).toEqual({
        actor_id: event.actor.id,
        actor_email: event.actor.email,
        target_id: event.target.id,
        target_label: event.target.label,
      });
    }
  });

  it('anonymises, as the deletion completes, an event whose recording began before the confirmation committed and ended after it', async () => {
    const dee = { id: await insertUser(dataSource, { email: 'dee@example.com' }), email: 'dee@example.com' };
    const tokenHash = await askedToDelete(dee.id);
    const update = auditEvent(coach, 'client.update', { type: 'client', id: dee.id, label: dee.email });
    const recording = dataSource.createQueryRunner();
    await recording.connect();
    await recording.startTransaction();
    try {
      await new AuditRepository(recording.manager).insert(update);
      const deletionId = randomUUID();
      await deletions.confirm(tokenHash, deletionId, async () => {});
      await recording.commitTransaction();
      // Neither saw the other: the insert looked before the deletion was there, the update before the entry was.
      expect(await stored(update)).toMatchObject({ target_id: dee.id, target_label: dee.email });

      await completeDeletion(deletionId);
      expect(await stored(update)).toMatchObject({ target_id: deletionId, target_label: 'Deleted account' });
    } finally {
      await recording.release();
    }
  });

  it('stores as they come the events of a new account under the address while the deletion is unfinished, and leaves them as it completes', async () => {
    const fay = await confirmedDeletionOf('fay@example.com');
    // A coach resends the lead's link before the leads part ran: a new account now holds the address.
    const newcomer = { id: await insertUser(dataSource, { email: fay.email }), email: fay.email };
    const own = auditEvent({ ...newcomer, role: 'client' }, 'client.nudge', { type: 'client', id: randomUUID(), label: null });
    const about = auditEvent(coach, 'client.update', { type: 'client', id: newcomer.id, label: newcomer.email });
    for (const event of [own, about]) expect(await audit.insert(event)).toBe(true);
    const theirs = [
      { actor_id: newcomer.id, actor_email: newcomer.email, target_id: own.target.id, target_label: null },
      { actor_id: coach.id, actor_email: coach.email, target_id: newcomer.id, target_label: newcomer.email },
    ];
    expect([await stored(own), await stored(about)]).toEqual(theirs);

    await completeDeletion(fay.deletionId);
    expect([await stored(own), await stored(about)]).toEqual(theirs);
  });

  it('stores the address again once the deletion completed: the record no longer knows it, and whoever holds it now is someone else', async () => {
    const eve = await confirmedDeletionOf('eve@example.com');
    await completeDeletion(eve.deletionId);
    const invitedAgain = auditEvent(coach, 'lead.add-client', { type: 'lead', id: randomUUID(), label: eve.email });
    await audit.insert(invitedAgain);
    expect(await stored(invitedAgain)).toMatchObject({ target_label: eve.email });
  });
});

describe('AccountDeletionRepository.requeueOpenParts against a real PostgreSQL: the parts, not Redis, say what is left', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let deletions: AccountDeletionRepository;
  const HOUR_MS = 3600 * 1000;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await openMigrated({ url: database.url, schema: 'auth', migrations: authMigrations });
    deletions = new AccountDeletionRepository(dataSource);
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  type PartRow = { part: string; job_id: string | null; queue: string | null; payload: unknown; dispatched_at: Date | null; confirmed_at: Date | null };
  const confirmed = async (email: string) => {
    const userId = await insertUser(dataSource, { email });
    const tokenHash = randomBytes(32);
    await deletions.addConfirmation(userId, { tokenHash, expiresAt: new Date(Date.now() + 60_000) }, async () => ({
      queue: 'mail',
      name: 'code-sign-in-locked',
      data: { email },
    }));
    const deletionId = randomUUID();
    expect(await deletions.confirm(tokenHash, deletionId, async () => {})).toMatchObject({ outcome: 'erased' });
    return deletionId;
  };
  const partsOf = async (deletionId: string): Promise<Record<string, PartRow>> => {
    const rows: PartRow[] = await dataSource.query(
      `SELECT p.part, p.job_id, o.queue, o.payload, o.dispatched_at, o.confirmed_at
       FROM auth.account_deletion_parts p LEFT JOIN auth.outbox o ON o.id = p.job_id WHERE p.deletion_id = $1`,
      [deletionId],
    );
    return Object.fromEntries(rows.map((row) => [row.part, row]));
  };
  const setRow = (jobId: string | null | undefined, change: string) => dataSource.query(`UPDATE auth.outbox SET ${change} WHERE id = $1`, [jobId]);

  it("gives each part erased by a job that job's outbox row id, and the auth part none", async () => {
    const deletionId = await confirmed('ids@example.com');
    const parts = await partsOf(deletionId);
    expect(parts.auth?.job_id).toBeNull();
    for (const part of Object.keys(deletionQueues) as (keyof typeof deletionQueues)[]) {
      expect(parts[part]).toMatchObject({ job_id: expect.any(String), queue: deletionQueues[part], payload: { deletionId } });
    }
  });

  it('queues again, under its own job id, each open part whose job was handed to BullMQ over an hour ago or whose row is gone', async () => {
    const deletionId = await confirmed('open-parts@example.com');
    const before = await partsOf(deletionId);
    // leads: failed for good, its row confirmed a day ago. progress: retrying, handed over a while ago. ditl: done.
    // notifier: its row pruned. investor: its row not yet dispatched.
    await setRow(before.leads?.job_id, `dispatched_at = now() - interval '25 hours', confirmed_at = now() - interval '24 hours'`);
    await setRow(before.progress?.job_id, `dispatched_at = now() - interval '10 minutes'`);
    await setRow(before.ditl?.job_id, `dispatched_at = now() - interval '25 hours', confirmed_at = now() - interval '24 hours'`);
    await deletions.markPartDone(deletionId, 'ditl');
    await dataSource.query(`DELETE FROM auth.outbox WHERE id = $1`, [before.notifier?.job_id]);
    const untouched = await partsOf(deletionId);

    expect(await deletions.requeueOpenParts(HOUR_MS)).toBe(2);

    const after = await partsOf(deletionId);
    expect(after.leads).toMatchObject({
      job_id: before.leads?.job_id,
      queue: QUEUES.deletionLeads,
      payload: { deletionId },
      dispatched_at: null,
      confirmed_at: null,
    });
    expect(after.notifier).toMatchObject({ job_id: before.notifier?.job_id, queue: QUEUES.deletionNotifier, payload: { deletionId }, dispatched_at: null });
    expect([after.progress, after.ditl, after.investor]).toEqual([untouched.progress, untouched.ditl, untouched.investor]);
    // Both are pending now: on their way, not queued once more.
    expect(await deletions.requeueOpenParts(HOUR_MS)).toBe(0);
  });
});

describe('AccountDeletionRepository.confirm again with the same link, after its answer was lost (real PostgreSQL)', () => {
  const { dataSource } = useMigratedDatabase((url) => openMigrated({ url, schema: 'auth', migrations: authMigrations }));
  let deletions: AccountDeletionRepository;
  beforeAll(() => {
    deletions = new AccountDeletionRepository(dataSource());
  });

  const asked = async (email: string) => {
    const userId = await insertUser(dataSource(), { email });
    const tokenHash = randomBytes(32);
    await deletions.addConfirmation(userId, { tokenHash, expiresAt: new Date(Date.now() + 60_000) }, async () => ({
      queue: 'mail',
      name: 'code-sign-in-locked',
      data: { email },
    }));
    return { userId, tokenHash };
  };
  /** Every row a confirmation writes or deletes, to see that a second one changes none of them. */
  const everything = async () => ({
    deletions: (await dataSource().query(`SELECT id, user_id, email, requested_at, completed_at FROM auth.account_deletions ORDER BY id`)) as unknown[],
    parts: (await dataSource().query(`SELECT deletion_id, part, done_at, job_id FROM auth.account_deletion_parts ORDER BY deletion_id, part`)) as unknown[],
    outbox: (await dataSource().query(`SELECT id, queue, job_name, payload FROM auth.outbox ORDER BY id`)) as unknown[],
    users: (await dataSource().query(`SELECT id FROM auth.users ORDER BY id`)) as unknown[],
  });

  it('answers the same deletion and account, ending no session and starting no second deletion', async () => {
    const { userId, tokenHash } = await asked('twice@example.com');
    const sessionsEnded: string[] = [];
    const endSessions = async (ended: string) => {
      sessionsEnded.push(ended);
    };
    const first = await deletions.confirm(tokenHash, randomUUID(), endSessions);
    const afterFirst = await everything();

    const second = await deletions.confirm(tokenHash, randomUUID(), endSessions);

    expect(first).toMatchObject({ outcome: 'erased', userId });
    expect(second).toEqual({ outcome: 'erased-before', userId, deletionId: first.outcome === 'erased' && first.deletionId });
    expect(await everything()).toEqual(afterFirst);
    expect(sessionsEnded).toEqual([userId]);
  });

  it('answers the second of two confirmations at once with the deletion the first started', async () => {
    const { userId, tokenHash } = await asked('at-once@example.com');
    const both = await Promise.all([randomUUID(), randomUUID()].map((deletionId) => deletions.confirm(tokenHash, deletionId, async () => {})));
    const ids = both.map((answer) => (answer.outcome === 'erased' || answer.outcome === 'erased-before') && answer.deletionId);

    expect(both.map((answer) => answer.outcome).sort()).toEqual(['erased', 'erased-before']);
    expect(new Set(ids).size).toBe(1);
    expect(await dataSource().query(`SELECT id FROM auth.account_deletions WHERE user_id = $1`, [userId])).toEqual([{ id: ids[0] }]);
  });

  it('is an invalid link again once the deletion completed, as its record no longer knows whose account it was', async () => {
    const { tokenHash } = await asked('completed@example.com');
    const first = await deletions.confirm(tokenHash, randomUUID(), async () => {});
    if (first.outcome !== 'erased') throw new Error(`not erased: ${first.outcome}`);
    for (const part of deletionParts) await deletions.markPartDone(first.deletionId, part);

    expect(await deletions.confirm(tokenHash, randomUUID(), async () => {})).toEqual({ outcome: 'invalid' });
    expect(await dataSource().query(`SELECT confirmation_token_hash FROM auth.account_deletions WHERE id = $1`, [first.deletionId])).toEqual([
      { confirmation_token_hash: null },
    ]);
  });

  it('stays an invalid link for a token never asked for', async () => {
    expect(await deletions.confirm(randomBytes(32), randomUUID(), async () => {})).toEqual({ outcome: 'invalid' });
  });
});
