import { randomUUID } from 'node:crypto';
import type { LeadCounters, LeadRole } from '@spark/contracts';
import { openMigrated, RequestLedger, type ServiceDataSource } from '@spark/persistence';
import { createTestDatabase, type TestDatabase } from '@spark/testing';
import { leadsMigrations } from '../migrations';
import { CoachLeadsRepository } from './coach-leads.repository';
import { CoachLeadsService } from './coach-leads.service';
import { LeadsRepository } from './leads.repository';
import { LeadsService } from './leads.service';

// The coach dashboard's counters come from leads.lead_counters, kept by a trigger. Every step below compares
// them with a count of leads.leads itself, per (status, account) and per shard, so a wrong trigger fails here.
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

  /** The counters are exact, and so is every shard row (none negative, none drifting from its leads). */
  const expectExact = async (): Promise<LeadCounters> => {
    const shown = await counters.counters();
    expect(shown).toEqual(await counted());
    const drift = await dataSource.query(
      `SELECT * FROM (
         SELECT approval_status, user_created, leads.lead_counter_shard(id) AS shard, count(*)::bigint AS count
         FROM leads.leads WHERE role <> 'investor' GROUP BY 1, 2, 3
       ) actual FULL JOIN (SELECT * FROM leads.lead_counters WHERE count <> 0) kept USING (approval_status, user_created, shard)
       WHERE actual.count IS DISTINCT FROM kept.count`,
    );
    expect(drift).toEqual([]);
    return shown;
  };

  const submit = async (role: LeadRole) => (await submissions.create({ email: `lead-${randomUUID()}@spark.test`, role })).lead;
  const approve = async (id: string) => {
    expect(await coachLeads.claimInvite(id, 'pending')).toBeDefined();
    return coachLeads.completeInvite(id);
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    // Leads written before the counter migration: it must backfill them.
    const before = await open(leadsMigrations.slice(0, -1));
    dataSource = before;
    for (const [role, status, userCreated] of [
      ['client', 'pending', false],
      ['client', 'approved', true],
      ['coach', 'approved', false],
      ['coach', 'rejected', false],
      ['investor', 'pending', false],
      ['investor', 'approved', true],
    ] as const) {
      for (let copy = 0; copy < 5; copy++) await rawInsert(role, status, userCreated);
    }
    await before.destroy();
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

  it('backfills the leads that existed before the migration', async () => {
    expect(await expectExact()).toEqual({ total: 20, pending: 5, approved: 10, activeUsers: 5, rejected: 5 });
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
          ledger.once({ requestId: randomUUID(), pattern: 'leads.create', redelivered: false }, () => submissions.create({ email, role: 'client' })),
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
