import { randomUUID } from 'node:crypto';
import { developmentSigningKeys } from '@spark/config';
import type { LeadCounters, LeadRole } from '@spark/contracts';
import { signedLeadSubmission } from '@spark/messaging';
import { openMigrated, RequestLedger, type ServiceDataSource } from '@spark/persistence';
import { createTestDatabase, type TestDatabase } from '@spark/testing';
import type { QueryRunner } from 'typeorm';
import { leadsMigrations } from '../migrations';
import { LeadCounters1763800000003 } from '../migrations/1763800000003-lead-counters';
import { LeadCountersPerWriter1764500000000 } from '../migrations/1764500000000-lead-counters-per-writer';
import { CoachLeadsRepository } from './coach-leads.repository';
import { CoachLeadsService } from './coach-leads.service';
import { LeadsRepository } from './leads.repository';
import { LeadsService } from './leads.service';

// The coach dashboard's counters come from leads.lead_counters, kept by a trigger. Every step below compares
// them with a count of leads.leads itself, per (status, account), so a wrong trigger fails here.
describe('lead counters kept by trigger (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: ServiceDataSource;
  let coachLeads: CoachLeadsRepository;
  let counters: CoachLeadsService;
  let submissions: LeadsService;

  const open = (migrations: typeof leadsMigrations) => openMigrated({ url: database.url, schema: 'leads', migrations, poolSize: 20 });

  const rawInsert = (role: LeadRole, status = 'pending', userCreated = false) =>
    dataSource.query(`INSERT INTO leads.leads (id, email, role, approval_status, user_created) VALUES ($1, $2, $3, $4, $5)`, [
      randomUUID(),
      `raw-${randomUUID()}@spark.test`,
      role,
      status,
      userCreated,
    ]);

  /** The counters as the old GROUP BY over every lead computed them. */
  const counted = async (): Promise<LeadCounters> => {
    const [row] = await dataSource.query<LeadCounters[]>(
      `SELECT count(*)::int AS total, (count(*) FILTER (WHERE approval_status = 'pending'))::int AS pending,
              (count(*) FILTER (WHERE approval_status = 'approved'))::int AS approved,
              (count(*) FILTER (WHERE user_created))::int AS "activeUsers",
              (count(*) FILTER (WHERE approval_status = 'rejected'))::int AS rejected
       FROM leads.leads WHERE role <> 'investor'`,
    );
    return row as LeadCounters;
  };

  /** The counters are exact, and so is the sum of the shard rows of every (status, account) pair. */
  const expectExact = async (): Promise<LeadCounters> => {
    const shown = await counters.counters();
    expect(shown).toEqual(await counted());
    const drift = await dataSource.query(
      `SELECT * FROM (
         SELECT approval_status, user_created, count(*)::bigint AS count FROM leads.leads WHERE role <> 'investor' GROUP BY 1, 2
       ) actual FULL JOIN (
         SELECT approval_status, user_created, sum(count)::bigint AS count FROM leads.lead_counters GROUP BY 1, 2 HAVING sum(count) <> 0
       ) kept USING (approval_status, user_created)
       WHERE actual.count IS DISTINCT FROM kept.count`,
    );
    expect(drift).toEqual([]);
    return shown;
  };

  /** Counter shards follow the writing connection, so the test opens connections until two write to different shards. */
  const twoConnectionsWithDistinctShards = async (): Promise<[QueryRunner, QueryRunner]> => {
    const shardOf = async (runner: QueryRunner) => ((await runner.query(`SELECT leads.writer_counter_shard() AS shard`)) as { shard: number }[])[0].shard;
    const first = dataSource.createQueryRunner();
    const firstShard = await shardOf(first);
    const sameShard: QueryRunner[] = [];
    for (;;) {
      const runner = dataSource.createQueryRunner();
      if ((await shardOf(runner)) !== firstShard) {
        await Promise.all(sameShard.map((spare) => spare.release()));
        return [first, runner];
      }
      sameShard.push(runner);
    }
  };

  // A lead as the gateway hands it on: with its statement for the notifier, which these tests never reach.
  const command = (email: string, role: LeadRole) => ({ email, role, submission: signedLeadSubmission(developmentSigningKeys(), { email, role }) });
  const submit = async (role: LeadRole) => (await submissions.create(command(`lead-${randomUUID()}@spark.test`, role))).lead;
  const approve = async (id: string) => {
    expect(await coachLeads.claimInvite(id, 'pending')).toBeDefined();
    return coachLeads.completeInvite(id);
  };

  const everyKind = [
    ['client', 'pending', false],
    ['client', 'approved', true],
    ['coach', 'approved', false],
    ['coach', 'rejected', false],
    ['investor', 'pending', false],
    ['investor', 'approved', true],
  ] as const;
  const migrationsBefore = (migration: (typeof leadsMigrations)[number]) => leadsMigrations.slice(0, leadsMigrations.indexOf(migration));

  beforeAll(async () => {
    database = await createTestDatabase();
    // Leads written before the counter migration, which must backfill them, and under its per-lead trigger, whose
    // counts the per-writer one must carry on from.
    for (const [migrations, copies] of [
      [migrationsBefore(LeadCounters1763800000003), 5],
      [migrationsBefore(LeadCountersPerWriter1764500000000), 1],
    ] as const) {
      dataSource = await open(migrations);
      for (const [role, status, userCreated] of everyKind) {
        for (let copy = 0; copy < copies; copy++) await rawInsert(role, status, userCreated);
      }
      await dataSource.destroy();
    }
    dataSource = await open(leadsMigrations);
    coachLeads = new CoachLeadsRepository(dataSource);
    counters = new CoachLeadsService(coachLeads, {
      invite: () => Promise.reject(new Error('no invite in this test')),
      presetEvolution: () => Promise.reject(new Error('no preset in this test')),
    });
    submissions = new LeadsService(new LeadsRepository(dataSource), { kick: () => undefined });
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  it('backfills the leads that existed before the migration, and keeps those counted since', async () => {
    expect(await expectExact()).toEqual({ total: 24, pending: 6, approved: 12, activeUsers: 6, rejected: 6 });
  });

  it("writes a lead while another connection's lead waits to commit", async () => {
    const [holder, writer] = await twoConnectionsWithDistinctShards();
    try {
      await holder.startTransaction();
      const held = randomUUID();
      await holder.query(`INSERT INTO leads.leads (id, email, role) VALUES ($1, $2, 'client')`, [held, `held-${randomUUID()}@spark.test`]);
      // The same last byte of the id: under a shard per lead, both leads would add to one counter row.
      const sameLastByte = `${randomUUID().slice(0, -2)}${held.slice(-2)}`;
      await writer.query(`SET lock_timeout = '2s'`);
      await writer.query(`INSERT INTO leads.leads (id, email, role) VALUES ($1, $2, 'client')`, [sameLastByte, `writer-${randomUUID()}@spark.test`]);
      await holder.commitTransaction();
      await expectExact();
    } finally {
      if (holder.isTransactionActive) await holder.rollbackTransaction();
      await Promise.all([holder.release(), writer.release()]);
    }
  });

  it('counts a submitted lead, but not an investor', async () => {
    const start = await expectExact();
    await submit('client');
    await submit('coach');
    await submit('investor');
    expect(await expectExact()).toEqual({ ...start, total: start.total + 2, pending: start.pending + 2 });
  });

  it('moves a lead from pending to approved with an account when approved, and a claim alone changes nothing', async () => {
    const lead = await submit('client');
    const start = await expectExact();
    expect(await coachLeads.claimInvite(lead.id, 'pending')).toBeDefined();
    await coachLeads.releaseClaim(lead.id);
    expect(await expectExact()).toEqual(start);
    await approve(lead.id);
    expect(await expectExact()).toEqual({ ...start, pending: start.pending - 1, approved: start.approved + 1, activeUsers: start.activeUsers + 1 });
  });

  it('moves a lead from pending to rejected', async () => {
    const lead = await submit('coach');
    const start = await expectExact();
    expect(await coachLeads.reject(lead.id)).toBeDefined();
    expect(await expectExact()).toEqual({ ...start, pending: start.pending - 1, rejected: start.rejected + 1 });
  });

  it("counts a coach's client lead as approved, then as an account once invited", async () => {
    const start = await expectExact();
    const row = await coachLeads.insertClaimedClientLead({ id: randomUUID(), email: `client-${randomUUID()}@spark.test`, createdAt: new Date() });
    expect(await expectExact()).toEqual({ ...start, total: start.total + 1, approved: start.approved + 1 });
    await coachLeads.completeInvite(row?.id ?? '');
    expect(await expectExact()).toEqual({ ...start, total: start.total + 1, approved: start.approved + 1, activeUsers: start.activeUsers + 1 });
  });

  it('follows user_created set and cleared by hand', async () => {
    const lead = await submit('client');
    const start = await expectExact();
    await dataSource.query(`UPDATE leads.leads SET user_created = true WHERE id = $1`, [lead.id]);
    expect(await expectExact()).toEqual({ ...start, activeUsers: start.activeUsers + 1 });
    await dataSource.query(`UPDATE leads.leads SET user_created = false WHERE id = $1`, [lead.id]);
    expect(await expectExact()).toEqual(start);
  });

  it('drops a lead whose role becomes investor and takes it back when it changes again', async () => {
    const lead = await approve((await submit('client')).id);
    const start = await expectExact();
    await dataSource.query(`UPDATE leads.leads SET role = 'investor' WHERE id = $1`, [lead.id]);
    expect(await expectExact()).toEqual({ ...start, total: start.total - 1, approved: start.approved - 1, activeUsers: start.activeUsers - 1 });
    // An investor's status changes count nowhere.
    await dataSource.query(`UPDATE leads.leads SET approval_status = 'rejected', user_created = false WHERE id = $1`, [lead.id]);
    expect(await expectExact()).toEqual({ ...start, total: start.total - 1, approved: start.approved - 1, activeUsers: start.activeUsers - 1 });
    await dataSource.query(`UPDATE leads.leads SET role = 'coach' WHERE id = $1`, [lead.id]);
    expect(await expectExact()).toEqual({ ...start, approved: start.approved - 1, activeUsers: start.activeUsers - 1, rejected: start.rejected + 1 });
    // Client to coach: still counted, in the same place.
    await dataSource.query(`UPDATE leads.leads SET role = 'client' WHERE id = $1`, [lead.id]);
    expect(await expectExact()).toEqual({ ...start, approved: start.approved - 1, activeUsers: start.activeUsers - 1, rejected: start.rejected + 1 });
  });

  it('status and role changed in one statement, and an id changed, stay exact', async () => {
    const investor = await submit('investor');
    const client = await submit('client');
    await dataSource.query(`UPDATE leads.leads SET role = 'coach', approval_status = 'approved', user_created = true WHERE id = $1`, [investor.id]);
    await dataSource.query(`UPDATE leads.leads SET role = 'investor', approval_status = 'rejected' WHERE id = $1`, [client.id]);
    await expectExact();
    await dataSource.query(`UPDATE leads.leads SET id = $2 WHERE id = $1`, [investor.id, randomUUID()]);
    await expectExact();
  });

  it('forgets a deleted lead, and an investor deleted changes nothing', async () => {
    const lead = await approve((await submit('client')).id);
    const investor = await submit('investor');
    const start = await expectExact();
    await coachLeads.delete(lead.id);
    await coachLeads.delete(investor.id);
    expect(await expectExact()).toEqual({ ...start, total: start.total - 1, approved: start.approved - 1, activeUsers: start.activeUsers - 1 });
  });

  it('stays exact under 200 concurrent submissions', async () => {
    const start = await expectExact();
    const roles: LeadRole[] = ['client', 'coach', 'investor', 'client'];
    await Promise.all(Array.from({ length: 200 }, (_, index) => submit(roles[index % roles.length] as LeadRole)));
    expect(await expectExact()).toEqual({ ...start, total: start.total + 150, pending: start.pending + 150 });
  });

  it('stays exact, without deadlocks, under 200 concurrent approvals, rejections and opposite moves', async () => {
    const pending = await Promise.all(Array.from({ length: 200 }, () => submit('client')));
    const approved = await Promise.all(Array.from({ length: 50 }, async () => approve((await submit('coach')).id)));
    const start = await expectExact();
    await Promise.all([
      ...pending.map((lead, index) => (index % 2 ? approve(lead.id) : coachLeads.reject(lead.id))),
      // Opposite direction to the approvals (approved with an account → pending), on the same counter rows.
      ...approved.map((lead) => dataSource.query(`UPDATE leads.leads SET approval_status = 'pending', user_created = false WHERE id = $1`, [lead.id])),
    ]);
    expect(await expectExact()).toEqual({
      ...start,
      pending: start.pending - 200 + 50,
      approved: start.approved + 100 - 50,
      activeUsers: start.activeUsers + 100 - 50,
      rejected: start.rejected + 100,
    });
  });

  describe('submissions committed in groups, as the leads-service commits them', () => {
    /** A ledger is a replica's: each commits one group at a time, so groups meet at once only across replicas. */
    const replica = () => new RequestLedger(dataSource, 'leads', new Set(['leads.create']));
    const submitTogether = (ledger: RequestLedger, emails: string[]) =>
      Promise.allSettled(
        emails.map((email) =>
          ledger.once({ requestId: randomUUID(), pattern: 'leads.create', redelivered: false }, () => submissions.create(command(email, 'client'))),
        ),
      );
    const transactionsOf = async (ids: string[]) =>
      (await dataSource.query<{ n: number }[]>(`SELECT count(DISTINCT xmin::text)::int AS n FROM leads.leads WHERE id = ANY($1::uuid[])`, [ids]))[0].n;

    it('stays exact, each group in one transaction, when ten replicas commit a group of twenty at once', async () => {
      const start = await expectExact();
      const groups = Array.from({ length: 10 }, () =>
        submitTogether(
          replica(),
          Array.from({ length: 20 }, () => `grouped-${randomUUID()}@spark.test`),
        ),
      );
      const ids = (await Promise.all(groups)).flat().map((outcome) => (outcome.status === 'fulfilled' ? outcome.value.lead.id : 'failed'));
      expect(ids).not.toContain('failed');
      // A deadlock between two groups would have sent their leads through one transaction each.
      expect(await transactionsOf(ids)).toBe(10);
      const jobs = await dataSource.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM leads.outbox WHERE payload->>'leadId' = ANY($1)`, [ids]);
      expect(jobs[0].n).toBe(400);
      expect(await expectExact()).toEqual({ ...start, total: start.total + 200, pending: start.pending + 200 });
    });

    // After the group rolls back, the two run again alone side by side: either may win, as two separate requests would.
    it('writes one of two leads with one e-mail in a group, with its jobs, and refuses the other', async () => {
      const email = `twice-${randomUUID()}@spark.test`;
      const outcomes = await submitTogether(replica(), [email, email]);
      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
      const refused = outcomes.find((outcome) => outcome.status === 'rejected');
      expect(refused?.status === 'rejected' && refused.reason).toMatchObject({ code: 'LEAD_EXISTS' });
      const jobs = await dataSource.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM leads.outbox WHERE payload->>'email' = $1`, [email]);
      expect(jobs[0].n).toBe(2);
    });
  });

  it('empties the counters when the leads are truncated', async () => {
    await dataSource.query('TRUNCATE leads.leads');
    expect(await expectExact()).toEqual({ total: 0, pending: 0, approved: 0, activeUsers: 0, rejected: 0 });
    await submit('client');
    expect(await expectExact()).toEqual({ total: 1, pending: 1, approved: 0, activeUsers: 0, rejected: 0 });
  });
});
