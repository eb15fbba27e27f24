import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { JwtService } from '@nestjs/jwt';
import {
  ACCESS_TOKEN_AUDIENCE,
  ACCESS_TOKEN_ISSUER,
  type AuditEvent,
  auditEventPageSchema,
  type Lead,
  leadInviteBodyOf,
  type UserRole,
} from '@spark/contracts';
import { Client } from 'pg';
import { insertUser } from '@spark/testing';
import { type InProcessStack, startInProcessStack } from './in-process-stack';

const JWT_SECRET = 'audit-log-system-test-secret-0123456789';
const person = (role: UserRole) => ({ id: randomUUID(), email: `${role}-${randomUUID().slice(0, 8)}@spark.test`, role });
const tokenOf = ({ id, email, role }: { id: string; email: string; role: UserRole }) =>
  new JwtService({ secret: JWT_SECRET }).sign({ sub: id, email, role }, { issuer: ACCESS_TOKEN_ISSUER, audience: ACCESS_TOKEN_AUDIENCE, expiresIn: 600 });

describe('the audit log of admin and coach actions', () => {
  let stack: InProcessStack;
  let db: Client;
  const admin = person('admin');
  const coach = person('coach');
  const client = person('client');

  beforeAll(async () => {
    stack = await startInProcessStack({ env: { JWT_SECRET, AUTH_DEVELOPMENT_MODE: 'true' } });
    db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await stack.stop();
  });

  const call = async (method: string, path: string, actor: { id: string; email: string; role: UserRole } | undefined, body?: unknown) => {
    const response = await fetch(`${stack.baseUrl}${path}`, {
      method,
      headers: { ...(actor ? { authorization: `Bearer ${tokenOf(actor)}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json().catch(() => null)) as Record<string, unknown> };
  };
  const newLead = async (role: 'client' | 'coach') =>
    (await call('POST', '/api/leads', undefined, { email: `lead-${randomUUID()}@spark.test`, role })).body.lead as Lead;
  const seedClient = async () => {
    const userId = randomUUID();
    await db.query(
      `INSERT INTO progress.user_progress (user_id, email, full_name, evolution_start_date, evolution_end_date) VALUES ($1, $2, 'Maya', current_date, current_date + 90)`,
      [userId, `client-${userId}@spark.test`],
    );
    return userId;
  };
  const readLog = async (query = '') => {
    const response = await call('GET', `/api/admin/audit${query}`, admin);
    expect(response.status).toBe(200);
    return auditEventPageSchema.parse(response.body);
  };
  const eventsFor = async (targetId: string) => (await readLog('?limit=100')).items.filter((event) => event.target.id === targetId);

  it('records each admin and coach action exactly once: who, what, when, which target, from where', async () => {
    const approved = await newLead('client');
    const rejected = await newLead('client');
    // Resend is for an approved lead whose invitation failed: no account yet.
    const uninvited = { id: randomUUID(), email: `uninvited-${randomUUID()}@spark.test`, role: 'client' };
    await db.query(`INSERT INTO leads.leads (id, email, role, approval_status) VALUES ($1, $2, $3, 'approved')`, [
      uninvited.id,
      uninvited.email,
      uninvited.role,
    ]);
    const clientId = await seedClient();
    const investor = await call('POST', '/api/investors', admin, { email: `investor-${randomUUID()}@fund.test` });
    const investorId = investor.body.id as string;
    const member = person('client');
    await insertUser(db, { ...admin, role: 'admin' });
    await insertUser(db, { ...member, role: 'client' });
    const deck = new FormData();
    deck.append('file', new Blob([Buffer.from('%PDF-1.4\n% deck\n')], { type: 'application/pdf' }), 'deck.pdf');

    /** Runs one action, expects it to succeed, and answers the id its event must name as target. */
    const perform = async (
      action: string,
      request: () => Promise<{ status: number; body: Record<string, unknown> }>,
      target: string | ((body: Record<string, unknown>) => string),
    ) => {
      const response = await request();
      expect([action, response.status < 300]).toEqual([action, true]);
      return typeof target === 'string' ? target : target(response.body);
    };
    const targets: Record<string, string> = {
      'lead.approve': await perform(
        'lead.approve',
        () => call('POST', `/api/coach/leads/${approved.id}/approve`, coach, leadInviteBodyOf(approved)),
        approved.id,
      ),
      'lead.resend': await perform(
        'lead.resend',
        () => call('POST', `/api/coach/leads/${uninvited.id}/resend`, coach, leadInviteBodyOf(uninvited)),
        uninvited.id,
      ),
      'lead.reject': await perform('lead.reject', () => call('POST', `/api/coach/leads/${rejected.id}/reject`, coach), rejected.id),
      'lead.add-client': await perform(
        'lead.add-client',
        () => call('POST', '/api/coach/leads', coach, { email: `added-${randomUUID()}@spark.test` }),
        (body) => (body.lead as Lead).id,
      ),
      'client.update': await perform('client.update', () => call('PATCH', `/api/coach/clients/${clientId}`, coach, { status: 'paused' }), clientId),
      'client.private-note': await perform(
        'client.private-note',
        () => call('POST', `/api/progress/clients/${clientId}/private-notes`, coach, { note: 'Sleeps badly' }),
        clientId,
      ),
      'client.pause-allowance': await perform(
        'client.pause-allowance',
        () => call('PUT', `/api/coach/clients/${clientId}/pause-allowance`, coach, { pauseDaysAllowance: 3 }),
        clientId,
      ),
      'client.nudge': await perform('client.nudge', () => call('POST', `/api/progress/clients/${clientId}/notes`, coach, { message: 'Great week!' }), clientId),
      'investor.code-issue': await perform('investor.code-issue', () => call('POST', `/api/investors/${investorId}/access-code`, admin), investorId),
      'investor.code-reissue': await perform(
        'investor.code-reissue',
        () => call('POST', `/api/investors/${investorId}/access-code/reissue`, admin),
        investorId,
      ),
      'investor.campaign-send': await perform(
        'investor.campaign-send',
        () => call('POST', '/api/investors/emails', admin, { emails: [investor.body.email], subject: 'Update', body: 'We grew.' }),
        (body) => body.id as string,
      ),
      'investor.deck-upload': await perform(
        'investor.deck-upload',
        async () => {
          const response = await fetch(`${stack.baseUrl}/api/investors/deck/full`, {
            method: 'PUT',
            body: deck,
            headers: { authorization: `Bearer ${tokenOf(admin)}` },
          });
          return { status: response.status, body: (await response.json()) as Record<string, unknown> };
        },
        'full',
      ),
      'user.role-change': await perform('user.role-change', () => call('PATCH', `/api/admin/users/${member.id}/role`, admin, { role: 'coach' }), member.id),
      'devlog.publish': await perform(
        'devlog.publish',
        () => call('POST', '/api/log/posts', admin, { markdown: `# Audit week ${randomUUID().slice(0, 6)}\nShipped.` }),
        (body) => body.slug as string,
      ),
    };
    targets['investor.add'] = investorId;

    const { rows } = await db.query(
      `SELECT action, target_id, count(*)::int AS n FROM auth.audit_events WHERE outcome = 'succeeded' GROUP BY action, target_id`,
    );
    expect(Object.fromEntries(rows.map((row: { action: string; target_id: string; n: number }) => [row.action, [row.target_id, row.n]]))).toEqual(
      Object.fromEntries(Object.entries(targets).map(([action, target]) => [action, [target, 1]])),
    );

    const [approval] = await eventsFor(approved.id);
    expect(approval).toMatchObject({
      actor: { id: coach.id, email: coach.email, role: 'coach' },
      target: { type: 'lead', id: approved.id, label: approved.email },
      outcome: 'succeeded',
      clientIp: '127.0.0.1',
    } satisfies Partial<AuditEvent>);
    expect(Date.now() - new Date(approval?.at ?? 0).getTime()).toBeLessThan(60_000);
    const update = (await eventsFor(clientId)).find((event) => event.action === 'client.update');
    expect(update?.details).toEqual({ status: 'paused' });
  });

  it('records refused attempts too: a coach approving a coach lead, a client calling a coach action', async () => {
    const coachLead = await newLead('coach');
    expect((await call('POST', `/api/coach/leads/${coachLead.id}/approve`, coach, leadInviteBodyOf(coachLead))).status).toBe(403);
    expect((await call('POST', `/api/coach/leads/${coachLead.id}/reject`, client)).status).toBe(403);
    expect((await call('POST', `/api/coach/leads/${coachLead.id}/reject`, undefined)).status).toBe(401);
    let events: AuditEvent[] = [];
    for (let poll = 0; poll < 50 && events.length < 2; poll++) {
      events = await eventsFor(coachLead.id);
      if (events.length < 2) await sleep(100);
    }
    expect(events.map(({ action, actor, outcome }) => [action, actor.role, outcome]).sort()).toEqual([
      ['lead.approve', 'coach', 'refused'],
      ['lead.reject', 'client', 'refused'],
    ]);
  });

  it('records a refused publish too, though the route refuses it before reading its body', async () => {
    const writer = person('coach');
    expect((await call('POST', '/api/log/posts', writer, { markdown: '# Not mine to publish' })).status).toBe(403);
    const refusals = async () =>
      (await db.query('SELECT action, outcome FROM auth.audit_events WHERE actor_id = $1', [writer.id])).rows as { action: string; outcome: string }[];
    for (let poll = 0; poll < 50 && (await refusals()).length === 0; poll++) await sleep(100);
    expect(await refusals()).toEqual([{ action: 'devlog.publish', outcome: 'refused' }]);
  });

  it("records a bounded number of one person's refused attempts: a script looping a refused action cannot fill the log", async () => {
    const prober = person('client');
    const refusedRows = async () => Number((await db.query('SELECT count(*) FROM auth.audit_events WHERE actor_id = $1', [prober.id])).rows[0].count);
    for (let attempt = 0; attempt < 60; attempt++) {
      expect((await call('POST', `/api/coach/leads/${randomUUID()}/reject`, prober)).status).toBe(403);
    }
    for (let poll = 0; poll < 100 && (await refusedRows()) < 20; poll++) await sleep(100);
    // A refusal's record is written after its answer: give the last ones time to land before counting.
    await sleep(1_000);
    expect(await refusedRows()).toBe(20);
  });

  it("bounds one person's audited actions: past the hour's share a request is refused (429), does nothing and writes nothing", async () => {
    const busy = person('coach');
    const clientId = await seedClient();
    const events = async () => Number((await db.query('SELECT count(*) FROM auth.audit_events WHERE actor_id = $1', [busy.id])).rows[0].count);
    const statuses = new Map<number, number>();
    const requests = 601;
    for (let sent = 0; sent < requests; sent += 25) {
      const batch = Array.from({ length: Math.min(25, requests - sent) }, () =>
        call('PUT', `/api/coach/clients/${clientId}/pause-allowance`, busy, { pauseDaysAllowance: 2 }),
      );
      for (const { status } of await Promise.all(batch)) statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    for (let poll = 0; poll < 100 && (await events()) < 600; poll++) await sleep(100);
    await sleep(1_000);
    expect({ statuses: Object.fromEntries(statuses), events: await events() }).toEqual({ statuses: { 200: 600, 429: 1 }, events: 600 });
  });

  it('lets only admins read the log: newest first, in keyset pages, filtered by action and by actor', async () => {
    expect((await call('GET', '/api/admin/audit', coach)).status).toBe(403);
    expect((await call('GET', '/api/admin/audit', client)).status).toBe(403);
    expect((await call('GET', '/api/admin/audit', undefined)).status).toBe(401);

    for (let index = 0; index < 3; index++) await call('POST', `/api/coach/leads/${(await newLead('client')).id}/reject`, coach);
    const everything = await readLog('?limit=100');
    const times = everything.items.map((event) => event.at);
    expect(times).toEqual([...times].sort().reverse());
    const first = await readLog('?limit=2');
    const second = await readLog(`?limit=2&cursor=${first.nextCursor}`);
    expect([...first.items, ...second.items].map((event) => event.id)).toEqual(everything.items.slice(0, 4).map((event) => event.id));

    const rejections = await readLog('?action=lead.reject&limit=100');
    expect(rejections.items.length).toBeGreaterThanOrEqual(3);
    expect(new Set(rejections.items.map((event) => event.action))).toEqual(new Set(['lead.reject']));
    for (const actor of [coach.email, coach.id]) {
      const byCoach = await readLog(`?actor=${encodeURIComponent(actor)}&limit=100`);
      expect(byCoach.items.length).toBeGreaterThanOrEqual(3);
      expect(new Set(byCoach.items.map((event) => event.actor.id))).toEqual(new Set([coach.id]));
    }
    expect((await call('GET', '/api/admin/audit?action=nope', admin)).status).toBe(400);
    expect((await call('GET', '/api/admin/audit?actor=not-an-address', admin)).status).toBe(400);
  });

  it('is append-only: the database refuses to change or delete an event', async () => {
    await expect(db.query(`UPDATE auth.audit_events SET outcome = 'refused'`)).rejects.toThrow(/append-only/);
    await expect(db.query(`DELETE FROM auth.audit_events`)).rejects.toThrow(/append-only/);
    await expect(db.query(`TRUNCATE auth.audit_events`)).rejects.toThrow(/append-only/);
  });
});
