import { randomUUID } from 'node:crypto';
import { JwtService } from '@nestjs/jwt';
import {
  ACCESS_TOKEN_AUDIENCE,
  ACCESS_TOKEN_ISSUER,
  errorBodySchema,
  type Lead,
  leadCountersSchema,
  leadInviteBodyOf,
  leadInviteResponseSchema,
  leadPageSchema,
  type UserRole,
} from '@spark/contracts';
import { eventually, lockWaiters } from '@spark/testing';
import { Client } from 'pg';
import { type InProcessStack, startInProcessStack } from './in-process-stack';
import { tokenOf } from './sign-in-client';
import { untilIdle } from './until-idle';

const JWT_SECRET = 'coach-system-test-secret-0123456789';

describe('the coach dashboard API: leads', () => {
  let stack: InProcessStack;
  let db: Client;
  const jwt = new JwtService({ secret: JWT_SECRET });
  const tokenFor = (role: UserRole, id = randomUUID()) =>
    jwt.sign({ sub: id, email: `${role}-${randomUUID()}@spark.test`, role }, { issuer: ACCESS_TOKEN_ISSUER, audience: ACCESS_TOKEN_AUDIENCE, expiresIn: 600 });
  let coach: string;

  beforeAll(async () => {
    stack = await startInProcessStack({ redisDb: 13, env: { JWT_SECRET, AUTH_DEVELOPMENT_MODE: 'true' } });
    db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
    coach = tokenFor('coach');
  });
  afterAll(async () => {
    await db.end();
    await stack.stop();
  });

  const call = (method: string, path: string, token: string | undefined, body?: unknown) =>
    fetch(`${stack.baseUrl}${path}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const newLead = async (role: 'client' | 'coach' | 'investor' = 'client'): Promise<Lead> => {
    const response = await fetch(`${stack.baseUrl}/api/leads`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `lead-${randomUUID()}@spark.test`, role, interest: 'Sleep better' }),
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as { lead: Lead }).lead;
  };
  /** An approved lead whose invitation failed: no account yet, the one case Resend is for. */
  const approvedWithoutAccount = async () => {
    const lead = { id: randomUUID(), email: `uninvited-${randomUUID()}@spark.test`, role: 'client' };
    await db.query(`INSERT INTO leads.leads (id, email, role, approval_status) VALUES ($1, $2, $3, 'approved')`, [lead.id, lead.email, lead.role]);
    return lead;
  };
  const invitesTo = (email: string) => stack.smtp.messages.filter((mail) => mail.to.includes(email) && /Sign in: /.test(mail.text ?? ''));
  /** The status the first invitation's link gets when redeemed. */
  const redeemInvite = async (email: string) => {
    const [invite] = invitesTo(email);
    const link = new URL(/Sign in: (\S+)/.exec(invite?.text ?? '')?.[1] ?? 'http://no-link.invalid');
    return (await call('POST', '/api/auth/redeem', undefined, { token: tokenOf(link) })).status;
  };

  /**
   * A press whose answer is lost after the auth-service committed its invitation: the leads-service cannot record its
   * own outcome (its ledger table held), so its unit of work passes its deadline and rolls back, and the coach hears
   * 503 while the account and its e-mail exist. The table is let go once nothing of the press waits on it.
   */
  async function pressedWithAnswerLost(press: () => Promise<Response>): Promise<void> {
    const lock = new Client({ connectionString: stack.databaseUrl });
    await lock.connect();
    try {
      await lock.query('BEGIN');
      await lock.query('LOCK TABLE leads.handled_requests IN EXCLUSIVE MODE');
      const answered = press();
      await eventually(async () => (await lockWaiters(db, 'handled_requests')) === 1, 15_000, 'the leads-service to wait before recording');
      expect((await answered).status).toBe(503);
      await eventually(async () => (await lockWaiters(db, 'handled_requests')) === 0, 15_000, 'the lead change to roll back');
      await lock.query('COMMIT');
    } finally {
      await lock.end();
    }
  }

  it('gives a client token 403 and no token 401 on every coach route', async () => {
    const client = tokenFor('client');
    const id = randomUUID();
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/coach/overview'],
      ['GET', '/api/coach/leads'],
      ['POST', '/api/coach/leads', { email: 'x@spark.test' }],
      ['POST', `/api/coach/leads/${id}/approve`],
      ['POST', `/api/coach/leads/${id}/resend`],
      ['POST', `/api/coach/leads/${id}/reject`],
      ['GET', '/api/coach/clients'],
      ['GET', `/api/coach/clients/${id}`],
      ['PATCH', `/api/coach/clients/${id}`, { status: 'paused' }],
    ];
    for (const [method, path, body] of routes) {
      expect([method, path, (await call(method, path, client, body)).status]).toEqual([method, path, 403]);
      expect([method, path, (await call(method, path, undefined, body)).status]).toEqual([method, path, 401]);
    }
  });

  it('lists non-investor leads newest first, pages them, filters, searches and counts them', async () => {
    const investor = await newLead('investor');
    const leads = [await newLead(), await newLead('coach'), await newLead()];
    const page = leadPageSchema.parse(await (await call('GET', '/api/coach/leads?limit=2', coach)).json());
    expect(page.items.map((lead) => lead.id)).toEqual([leads[2]?.id, leads[1]?.id]);
    const next = leadPageSchema.parse(await (await call('GET', `/api/coach/leads?limit=2&cursor=${page.nextCursor}`, coach)).json());
    expect(next.items.map((lead) => lead.id)).toContain(leads[0]?.id);
    expect(next.items.map((lead) => lead.id)).not.toContain(investor.id);

    const search = leadPageSchema.parse(await (await call('GET', `/api/coach/leads?search=${leads[1]?.email.slice(0, 18)}`, coach)).json());
    expect(search.items.map((lead) => lead.email)).toEqual([leads[1]?.email]);
    const investorSearch = leadPageSchema.parse(await (await call('GET', `/api/coach/leads?search=${investor.email}`, coach)).json());
    expect(investorSearch.items).toEqual([]);

    const counters = leadCountersSchema.parse(((await (await call('GET', '/api/coach/overview', coach)).json()) as { leads: unknown }).leads);
    const [row] = (await db.query(`SELECT count(*)::int AS n FROM leads.leads WHERE role <> 'investor'`)).rows as { n: number }[];
    expect(counters.total).toBe(row?.n);
    expect(counters.pending).toBe(row?.n);
    expect((await call('GET', '/api/coach/leads?status=nope', coach)).status).toBe(400);
    expect((await call('GET', '/api/coach/leads?cursor=garbage', coach)).status).toBe(400);
  });

  it("counts a coach's own approve and reject in the very next overview", async () => {
    const overview = async () => leadCountersSchema.parse(((await (await call('GET', '/api/coach/overview', coach)).json()) as { leads: unknown }).leads);
    const [toApprove, toReject] = [await newLead(), await newLead()];
    await newLead('coach');
    await newLead('investor');
    const before = await overview();
    expect((await call('POST', `/api/coach/leads/${toApprove.id}/approve`, coach, leadInviteBodyOf(toApprove))).status).toBe(200);
    const approved = await overview();
    expect(approved).toEqual({ ...before, pending: before.pending - 1, approved: before.approved + 1, activeUsers: before.activeUsers + 1 });
    expect((await call('POST', `/api/coach/leads/${toReject.id}/reject`, coach)).status).toBe(200);
    expect(await overview()).toEqual({ ...approved, pending: approved.pending - 1, rejected: approved.rejected + 1 });
  });

  it('lets only an admin approve, resend or reject a coach lead: a coach gets 403 and changes nothing', async () => {
    const admin = tokenFor('admin');
    const [toApprove, toReject] = [await newLead('coach'), await newLead('coach')];
    for (const [lead, action] of [
      [toApprove, 'approve'],
      [toReject, 'reject'],
    ] as const) {
      const refused = await call('POST', `/api/coach/leads/${lead.id}/${action}`, coach, leadInviteBodyOf(lead));
      expect([action, refused.status]).toEqual([action, 403]);
      expect(errorBodySchema.parse(await refused.json()).message).toBe(`Only an admin can ${action} a coach lead.`);
    }
    const unchanged = await db.query(`SELECT approval_status, user_created FROM leads.leads WHERE id = ANY($1)`, [[toApprove.id, toReject.id]]);
    expect(unchanged.rows).toEqual([
      { approval_status: 'pending', user_created: false },
      { approval_status: 'pending', user_created: false },
    ]);
    expect((await db.query(`SELECT 1 FROM auth.users WHERE email = $1`, [toApprove.email])).rows).toEqual([]);

    expect((await call('POST', `/api/coach/leads/${toApprove.id}/approve`, admin, leadInviteBodyOf(toApprove))).status).toBe(200);
    expect((await db.query(`SELECT role FROM auth.users WHERE email = $1`, [toApprove.email])).rows).toEqual([{ role: 'coach' }]);
    const resend = await call('POST', `/api/coach/leads/${toApprove.id}/resend`, coach, leadInviteBodyOf(toApprove));
    expect(resend.status).toBe(403);
    expect(errorBodySchema.parse(await resend.json()).message).toBe('Only an admin can resend a coach lead.');
    // Past the role check, an admin's resend finds the account the approval made.
    expect((await call('POST', `/api/coach/leads/${toApprove.id}/resend`, admin, leadInviteBodyOf(toApprove))).status).toBe(409);
    expect((await call('POST', `/api/coach/leads/${toReject.id}/reject`, admin)).status).toBe(200);
  });

  it('invites only the address and role the coach was shown: another answers 409 and invites nobody', async () => {
    const lead = await newLead();
    for (const body of [
      { email: `someone-else-${randomUUID()}@spark.test`, role: 'client' },
      { email: lead.email, role: 'coach' },
    ]) {
      const refused = await call('POST', `/api/coach/leads/${lead.id}/approve`, tokenFor('admin'), body);
      expect(refused.status).toBe(409);
      expect(errorBodySchema.parse(await refused.json()).message).toBe('This lead is not the one you approved. Please refresh the page.');
    }
    expect((await call('POST', `/api/coach/leads/${lead.id}/approve`, coach)).status).toBe(400);
    expect((await db.query(`SELECT approval_status, user_created FROM leads.leads WHERE id = $1`, [lead.id])).rows).toEqual([
      { approval_status: 'pending', user_created: false },
    ]);
    expect((await db.query(`SELECT 1 FROM auth.users WHERE email = $1`, [lead.email])).rows).toEqual([]);
  });

  it("sends nothing to a team member's address added or approved as a client lead, and leaves their sign-in link working", async () => {
    const openLinks = async (email: string) =>
      (await db.query(`SELECT id FROM auth.magic_links WHERE email = $1 AND used_at IS NULL AND expires_at > now() ORDER BY id`, [email])).rows;
    const staffWithOpenLink = async (role: 'admin' | 'coach') => {
      const email = `staff-${role}-${randomUUID()}@spark.test`;
      await db.query(`INSERT INTO auth.users (id, email, role) VALUES ($1, $2, $3)`, [randomUUID(), email, role]);
      expect((await call('POST', '/api/auth/magic-link', undefined, { email })).status).toBe(202);
      return { email, links: await openLinks(email) };
    };
    const refusal = 'This address belongs to an account with another role. An admin can change its role in the Team tab.';
    const coachId = randomUUID();
    const coach = tokenFor('coach', coachId);

    // A coach adds an admin's address as a client lead.
    const admin = await staffWithOpenLink('admin');
    const added = await call('POST', '/api/coach/leads', coach, { email: admin.email });
    // A visitor submits a coach's address as a client lead, and a coach approves it.
    const staffCoach = await staffWithOpenLink('coach');
    const submitted = await fetch(`${stack.baseUrl}/api/leads`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: staffCoach.email, role: 'client', interest: 'Sleep better' }),
    });
    const { lead } = (await submitted.json()) as { lead: Lead };
    const approved = await call('POST', `/api/coach/leads/${lead.id}/approve`, coach, leadInviteBodyOf(lead));

    await untilIdle(stack);
    const accounts = await db.query(`SELECT email, role, full_name FROM auth.users WHERE email = ANY($1) ORDER BY role`, [[admin.email, staffCoach.email]]);
    const leads = await db.query(`SELECT email, approval_status, user_created FROM leads.leads WHERE email = ANY($1)`, [[admin.email, staffCoach.email]]);
    expect({
      added: [added.status, ((await added.json()) as { message?: string }).message],
      approved: [approved.status, ((await approved.json()) as { message?: string }).message],
      accounts: accounts.rows,
      leads: leads.rows,
      linksStillOpen: [await openLinks(admin.email), await openLinks(staffCoach.email)],
      invitations: [...invitesTo(admin.email), ...invitesTo(staffCoach.email)].filter((mail) => /approved/i.test(mail.subject ?? '')).length,
      // Else a coach could try addresses to learn which are the team's, leaving no trace for the admins.
      audited: await eventually(
        async () => {
          const events = await db.query(`SELECT action, outcome FROM auth.audit_events WHERE actor_id = $1 ORDER BY action`, [coachId]);
          return events.rows.length === 2 ? events.rows : undefined;
        },
        5000,
        "the coach's two refused attempts in the audit log",
      ),
    }).toEqual({
      added: [409, refusal],
      approved: [409, refusal],
      accounts: [
        { email: admin.email, role: 'admin', full_name: null },
        { email: staffCoach.email, role: 'coach', full_name: null },
      ],
      leads: [{ email: staffCoach.email, approval_status: 'pending', user_created: false }],
      linksStillOpen: [admin.links, staffCoach.links],
      invitations: 0,
      audited: [
        { action: 'lead.add-client', outcome: 'refused' },
        { action: 'lead.approve', outcome: 'refused' },
      ],
    });
  });

  it('a coach cannot approve, reject or resend an investor lead', async () => {
    const investor = await newLead('investor');
    for (const action of ['approve', 'reject', 'resend']) {
      expect((await call('POST', `/api/coach/leads/${investor.id}/${action}`, coach, leadInviteBodyOf(investor))).status).toBe(404);
    }
  });

  it('approves a lead under 10 concurrent clicks with one user and one e-mail', async () => {
    const lead = await newLead();
    const admin = tokenFor('admin');
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, index) => call('POST', `/api/coach/leads/${lead.id}/approve`, index % 2 ? coach : admin, leadInviteBodyOf(lead))),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(200));
    const answers = await Promise.all(responses.map(async (response) => leadInviteResponseSchema.parse(await response.json())));
    expect(answers.filter((answer) => !answer.alreadyApproved)).toHaveLength(1);
    expect(answers.every((answer) => answer.lead.userCreated && answer.lead.approvalStatus === 'approved')).toBe(true);
    expect(answers.find((answer) => !answer.alreadyApproved)?.magicLink).toMatch(/magic-link-auth\?.*#token=/);
    const users = await db.query(`SELECT id FROM auth.users WHERE email = $1`, [lead.email]);
    expect(users.rows).toHaveLength(1);
    await untilIdle(stack);
    expect(invitesTo(lead.email)).toHaveLength(1);
  });

  it('sends one invitation when a coach approves again after the first answer was lost, and its link still signs in', async () => {
    const lead = await newLead();
    const approver = tokenFor('coach');
    await pressedWithAnswerLost(() => call('POST', `/api/coach/leads/${lead.id}/approve`, approver, leadInviteBodyOf(lead)));
    expect((await db.query(`SELECT approval_status FROM leads.leads WHERE id = $1`, [lead.id])).rows).toEqual([{ approval_status: 'pending' }]);
    expect((await db.query(`SELECT 1 FROM auth.users WHERE email = $1`, [lead.email])).rows).toHaveLength(1);

    const again = await call('POST', `/api/coach/leads/${lead.id}/approve`, approver, leadInviteBodyOf(lead));
    expect(again.status).toBe(200);
    expect(leadInviteResponseSchema.parse(await again.json()).lead).toMatchObject({ approvalStatus: 'approved', userCreated: true });
    await untilIdle(stack);
    expect({ invitations: invitesTo(lead.email).length, firstLinkSignsIn: await redeemInvite(lead.email) }).toEqual({ invitations: 1, firstLinkSignsIn: 200 });
  });

  it('sends one invitation when a coach adds a client lead again after the first answer was lost, and its link still signs in', async () => {
    const email = `re-added-${randomUUID()}@spark.test`;
    const adder = tokenFor('coach');
    await pressedWithAnswerLost(() => call('POST', '/api/coach/leads', adder, { email }));
    expect((await db.query(`SELECT 1 FROM leads.leads WHERE email = $1`, [email])).rows).toEqual([]);
    expect((await db.query(`SELECT 1 FROM auth.users WHERE email = $1`, [email])).rows).toHaveLength(1);

    const again = await call('POST', '/api/coach/leads', adder, { email });
    expect(again.status).toBe(201);
    expect(await again.json()).toMatchObject({ inviteSent: true, lead: { email, approvalStatus: 'approved', userCreated: true } });
    await untilIdle(stack);
    expect({ invitations: invitesTo(email).length, firstLinkSignsIn: await redeemInvite(email) }).toEqual({ invitations: 1, firstLinkSignsIn: 200 });
  });

  it('rejects a pending lead, and refuses to approve it afterwards', async () => {
    const lead = await newLead();
    const rejected = (await (await call('POST', `/api/coach/leads/${lead.id}/reject`, coach)).json()) as Lead;
    expect(rejected.approvalStatus).toBe('rejected');
    expect((await call('POST', `/api/coach/leads/${lead.id}/approve`, coach, leadInviteBodyOf(lead))).status).toBe(409);
    expect((await call('POST', `/api/coach/leads/${randomUUID()}/reject`, coach)).status).toBe(404);
    expect((await call('POST', '/api/coach/leads/not-a-uuid/reject', coach)).status).toBe(400);
  });

  it('resends the link of an approved lead without an account, and only of an approved one', async () => {
    const pending = await newLead();
    expect((await call('POST', `/api/coach/leads/${pending.id}/resend`, coach, leadInviteBodyOf(pending))).status).toBe(409);
    const lead = await approvedWithoutAccount();
    const resent = leadInviteResponseSchema.parse(await (await call('POST', `/api/coach/leads/${lead.id}/resend`, coach, leadInviteBodyOf(lead))).json());
    expect(resent.lead.userCreated).toBe(true);
    expect((await db.query(`SELECT 1 FROM auth.users WHERE email = $1`, [lead.email])).rows).toHaveLength(1);
    await untilIdle(stack);
    expect(invitesTo(lead.email)).toHaveLength(1);
  });

  it('answers 409 to a resend for a lead whose account exists, and sends nothing', async () => {
    const lead = await newLead();
    expect((await call('POST', `/api/coach/leads/${lead.id}/approve`, coach, leadInviteBodyOf(lead))).status).toBe(200);
    const resend = await call('POST', `/api/coach/leads/${lead.id}/resend`, coach, leadInviteBodyOf(lead));
    expect(resend.status).toBe(409);
    expect(errorBodySchema.parse(await resend.json()).message).toBe('This lead already has an account: they sign in with their e-mail address.');
    await untilIdle(stack);
    expect(invitesTo(lead.email)).toHaveLength(1);
  });

  it('never brings back by a resend an account erased while its lead waits to be anonymised', async () => {
    const lead = await newLead();
    expect((await call('POST', `/api/coach/leads/${lead.id}/approve`, coach, leadInviteBodyOf(lead))).status).toBe(200);
    // The deletion's auth part erases the account at once; the leads part runs later, from its queue.
    await db.query(`DELETE FROM auth.users WHERE email = $1`, [lead.email]);
    expect((await call('POST', `/api/coach/leads/${lead.id}/resend`, coach, leadInviteBodyOf(lead))).status).toBe(409);
    expect((await db.query(`SELECT 1 FROM auth.users WHERE email = $1`, [lead.email])).rows).toEqual([]);
  });

  it('takes at most five resends of one lead an hour, whoever asks: the sixth is a 429 and sends nothing', async () => {
    const lead = await approvedWithoutAccount();
    // The first makes the account; the next four find it (409) and still count.
    for (const status of [200, 409, 409, 409, 409]) {
      expect((await call('POST', `/api/coach/leads/${lead.id}/resend`, tokenFor('coach'), leadInviteBodyOf(lead))).status).toBe(status);
    }
    const refused = await call('POST', `/api/coach/leads/${lead.id}/resend`, tokenFor('coach'), leadInviteBodyOf(lead));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(errorBodySchema.parse(await refused.json()).message).toMatch(/^Too many requests\. Please try again in /);
    await untilIdle(stack);
    expect(invitesTo(lead.email)).toHaveLength(1);
  });

  it('lets one coach invite at most sixty people an hour: a stolen token cannot mail the world', async () => {
    const sender = tokenFor('coach');
    const emails = Array.from({ length: 61 }, (_, index) => `cohort-${index}-${randomUUID()}@spark.test`);
    for (const email of emails.slice(0, 60)) expect((await call('POST', '/api/coach/leads', sender, { email })).status).toBe(201);
    expect((await call('POST', '/api/coach/leads', sender, { email: emails[60] })).status).toBe(429);
    expect((await db.query('SELECT count(*)::int AS accounts FROM auth.users WHERE email = $1', [emails[60]])).rows[0]).toEqual({ accounts: 0 });
    expect((await call('POST', '/api/coach/leads', tokenFor('coach'), { email: emails[60] })).status).toBe(201);
  });

  it('adds a client lead whose first evolution takes the custom length, and refuses a duplicate', async () => {
    const email = `added-${randomUUID()}@spark.test`;
    const response = await call('POST', '/api/coach/leads', coach, { email: ` ${email.toUpperCase()} `, customEvolutionDays: '30' });
    expect(response.status).toBe(201);
    const added = (await response.json()) as { lead: Lead; inviteSent: boolean };
    expect(added).toMatchObject({ inviteSent: true, lead: { email, approvalStatus: 'approved', userCreated: true, role: 'client' } });
    expect((await call('POST', '/api/coach/leads', coach, { email })).status).toBe(409);
    expect((await call('POST', '/api/coach/leads', coach, { email: '' })).status).toBe(400);
    expect((await call('POST', '/api/coach/leads', coach, { email: 'a@spark.test', customEvolutionDays: 'ten' })).status).toBe(400);

    // Onboarding inserts the first evolution with the default length; the preset wins.
    const [user] = (await db.query(`SELECT id FROM auth.users WHERE email = $1`, [email])).rows as { id: string }[];
    const inserted = await db.query(
      `INSERT INTO progress.user_progress (user_id, email, evolution_start_date, evolution_end_date) VALUES ($1, $2, '2025-01-01', '2025-04-01')
       RETURNING custom_evolution_days, to_char(evolution_end_date, 'YYYY-MM-DD') AS end_date`,
      [user?.id, email],
    );
    expect(inserted.rows[0]).toEqual({ custom_evolution_days: 30, end_date: '2025-01-31' });
  });
});
