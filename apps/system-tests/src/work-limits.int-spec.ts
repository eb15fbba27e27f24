import { randomBytes, randomUUID } from 'node:crypto';
import { errorBodySchema, generateDitlResponseSchema, REFRESH_COOKIE_NAME } from '@spark/contracts';
import { onboardingAnswers } from '@spark/testing';
import { Client } from 'pg';
import { createSignedInUser, TEST_JWT_SECRET } from './ditl-auth';
import { type InProcessStack, startInProcessStack } from './in-process-stack';

/**
 * Work anyone can ask for (e-mails, sign-ups, deck downloads, model calls) has a limit shared by every
 * gateway replica. Requests come from one address here; a test that needs many addresses forgets the
 * per-IP counters between requests, as an attacker rotating addresses would make them.
 */
describe('limits on work anyone can ask for', () => {
  let stack: InProcessStack;
  let db: Client;

  beforeAll(async () => {
    stack = await startInProcessStack({ withNotifier: false, env: { JWT_SECRET: TEST_JWT_SECRET, DITL_WORKER_ENABLED: 'false' } });
    db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await stack?.stop();
  });

  const forgetCounters = async (pattern = '*') => {
    const keys = await stack.redis.keys(`${stack.env.BUS_PREFIX}:gateway:rate-limit:${pattern}`);
    if (keys.length > 0) await stack.redis.del(...keys);
  };
  beforeEach(() => forgetCounters());

  const post = (path: string, body: unknown, token?: string) =>
    fetch(`${stack.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
  const expectRefused = async (response: Response, message: RegExp) => {
    const answer: unknown = await response.json();
    expect({ status: response.status, answer }).toEqual({ status: 429, answer: expect.objectContaining({ code: 'RATE_LIMITED' }) });
    const body = errorBodySchema.parse(answer);
    expect(body.message).toMatch(message);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(body.retryAfterSeconds).toBe(Number(response.headers.get('retry-after')));
  };
  const leadsOf = async (pattern: string) => Number((await db.query('SELECT count(*) FROM leads.leads WHERE email LIKE $1', [pattern])).rows[0].count);

  it('POST /api/leads takes 30 leads an hour from one address, then answers 429 and writes nothing', async () => {
    for (let lead = 0; lead < 30; lead++) expect((await post('/api/leads', { email: `office-${lead}@example.com` })).status).toBe(201);

    await expectRefused(await post('/api/leads', { email: 'office-30@example.com' }), /Too many requests\. Please try again in (about )?\d+ (minutes?|hour)\./);
    expect(await leadsOf('office-%')).toBe(30);
  });

  it('POST /api/leads takes 100 leads an hour from one network, however many of its addresses they come from', async () => {
    for (let lead = 0; lead < 100; lead++) {
      expect((await post('/api/leads', { email: `rotating-${lead}@example.com` })).status).toBe(201);
      await forgetCounters('leads-per-ip:*');
    }

    await expectRefused(await post('/api/leads', { email: 'rotating-100@example.com' }), /Please try again in (about )?\d+ (minutes?|hour)\./);
    expect(await leadsOf('rotating-%')).toBe(100);
  });

  it('POST /api/leads takes 5 leads a day for one mailbox, plus-addresses included, from any address', async () => {
    for (let lead = 0; lead < 5; lead++) {
      expect((await post('/api/leads', { email: `inbox+${lead}@example.com` })).status).toBe(201);
      await forgetCounters('leads-per-ip:*');
    }

    await expectRefused(await post('/api/leads', { email: 'Inbox+again@Example.com' }), /Please try again in (about )?\d+ hours?\./);
    await expectRefused(await post('/api/leads', { email: 'inbox@example.com' }), /Please try again/);
    expect(await leadsOf('inbox%')).toBe(5);
  });

  it("POST /api/leads counts Gmail's dotted and googlemail.com spellings of one inbox as one mailbox", async () => {
    for (const email of [
      'grace.hopper@gmail.com',
      'gracehopper@gmail.com',
      'g.race.hopper@gmail.com',
      'grace.hopper@googlemail.com',
      'gracehopper+5@googlemail.com',
    ]) {
      expect((await post('/api/leads', { email })).status).toBe(201);
    }

    await expectRefused(await post('/api/leads', { email: 'Grace.Hopper+again@gmail.com' }), /Please try again in (about )?\d+ hours?\./);
    expect(await leadsOf('%hopper%@g%mail.com')).toBe(5);
  });

  it('the investor sign-up forms take 5 requests a day per mailbox, across both forms', async () => {
    for (const path of ['early-access', 'deck-requests', 'early-access', 'deck-requests', 'early-access']) {
      expect((await post(`/api/investors/${path}`, { email: 'angel@fund.test' })).status).toBe(202);
    }

    await expectRefused(await post('/api/investors/deck-requests', { email: 'angel+deck@fund.test' }), /Please try again/);
  });

  it('tries one deck access code at most 20 times a day, from however many addresses', async () => {
    const code = 'SPARK-AAAA-BBBB-CCCC-DDDD-EEEE';
    for (let attempt = 0; attempt < 20; attempt++) {
      expect((await post('/api/investors/deck-download', { email: `holder-${attempt}@fund.test`, accessCode: code })).status).toBe(403);
      await forgetCounters('deck-download-per-ip:*');
    }

    await expectRefused(await post('/api/investors/deck-download', { email: 'holder@fund.test', accessCode: code.toLowerCase() }), /Please try again/);
    // Another code is not held back by this one.
    expect((await post('/api/investors/deck-download', { email: 'holder@fund.test', accessCode: 'SPARK-AAAA-BBBB-CCCC-DDDD-FFFF' })).status).toBe(403);
  });

  it('sends a client 3 account-deletion links a day, then answers 429 and writes no fourth confirmation', async () => {
    const client = await createSignedInUser(db, `leaving-${randomUUID()}@example.com`);
    for (let request = 0; request < 3; request++) expect((await post('/api/me/account-deletion', {}, client.token)).status).toBe(202);

    await expectRefused(await post('/api/me/account-deletion', {}, client.token), /Please try again in (about )?\d+ hours?\./);
    expect(Number((await db.query('SELECT count(*) FROM auth.deletion_confirmations WHERE user_id = $1', [client.id])).rows[0].count)).toBe(3);
  });

  it('tries 30 account-deletion links in 10 minutes from one address, then answers 429', async () => {
    for (let attempt = 0; attempt < 30; attempt++) {
      expect((await post('/api/account-deletion/confirm', { token: randomUUID().replaceAll('-', '') })).status).toBe(404);
    }

    await expectRefused(
      await post('/api/account-deletion/confirm', { token: randomUUID().replaceAll('-', '') }),
      /Please try again in (about )?\d+ minutes?\./,
    );
  });

  // Each such request is a command its service records, so a script sending made-up tokens wrote a row per request and
  // queued its service's real work behind them.
  it.each([
    { route: '/api/auth/refresh', method: 'POST', max: 100, answer: 401, pattern: 'auth.refresh', withCookie: true },
    { route: '/api/auth/sign-out', method: 'POST', max: 100, answer: 204, pattern: 'auth.sign-out', withCookie: true },
    { route: '/api/leads/challenge', method: 'PATCH', max: 30, answer: 403, pattern: 'leads.set-challenge', withCookie: false },
  ])('$method $route takes $max made-up tokens in 10 minutes from one address, then answers 429 and records nothing', async (limited) => {
    const [schema] = limited.pattern.split('.');
    const recorded = async () =>
      Number((await db.query(`SELECT count(*) FROM "${schema}".handled_requests WHERE pattern = $1`, [limited.pattern])).rows[0].count);
    const send = () => {
      const token = randomBytes(32).toString('base64url');
      return fetch(`${stack.baseUrl}${limited.route}`, {
        method: limited.method,
        headers: limited.withCookie ? { cookie: `${REFRESH_COOKIE_NAME}=${token}` } : { 'content-type': 'application/json' },
        body: limited.withCookie ? undefined : JSON.stringify({ token, primaryChallenge: 'consistency' }),
      });
    };
    const before = await recorded();
    for (let attempt = 0; attempt < limited.max; attempt++) {
      const response = await send();
      expect(response.status).toBe(limited.answer);
      await response.arrayBuffer();
    }

    const refused = await send();
    expect(refused.headers.get('set-cookie')).toBeNull();
    await expectRefused(refused, /Please try again in (about )?\d+ minutes?\./);
    expect(await recorded()).toBe(before + limited.max);
  });

  it('grants a client 60 spark uploads an hour, then answers 429 and signs no 61st URL; another client is unaffected', async () => {
    const client = await createSignedInUser(db, `uploads-${randomUUID()}@example.com`);
    const grant = (token: string) => post('/api/sparks/uploads', { clientSparkId: randomUUID(), bytes: 100 * 1024 * 1024, contentType: 'video/mp4' }, token);
    for (let upload = 0; upload < 60; upload++) expect((await grant(client.token)).status).toBe(201);

    await expectRefused(await grant(client.token), /Please try again in (about )?\d+ (minutes?|hour)\./);
    const someoneElse = await createSignedInUser(db, `uploads-${randomUUID()}@example.com`);
    expect((await grant(someoneElse.token)).status).toBe(201);
  });

  it('gives a client 5 DITL generations a day: a repeat while one runs is the same one, the sixth is a clear 429', async () => {
    const client = await createSignedInUser(db, `ditl-${randomUUID()}@example.com`);
    const generate = () => post('/api/ditl/generations', { onboardingData: onboardingAnswers() }, client.token);
    const finishAll = () => db.query(`UPDATE ditl.generations SET status = 'completed' WHERE user_id = $1`, [client.id]);

    const first = generateDitlResponseSchema.parse(await (await generate()).json());
    expect(generateDitlResponseSchema.parse(await (await generate()).json())).toEqual(first);
    await finishAll();
    for (let generation = 2; generation <= 5; generation++) {
      const response = await generate();
      expect(response.status).toBe(202);
      await finishAll();
    }

    await expectRefused(await generate(), /^You have created 5 Day in the Life presentations in the last 24 hours.*another in (about )?\d+ hours?\.$/);
    expect(Number((await db.query('SELECT count(*) FROM ditl.generations WHERE user_id = $1', [client.id])).rows[0].count)).toBe(5);
    const someoneElse = await createSignedInUser(db, `ditl-${randomUUID()}@example.com`);
    expect((await post('/api/ditl/generations', { onboardingData: onboardingAnswers() }, someoneElse.token)).status).toBe(202);
  });

  it("regenerates 20 clients' Days in the Life an hour per coach, then answers 429; another coach is unaffected", async () => {
    // Each client's own budget bounds one client; this bounds a stolen coach token across the whole roster.
    const regenerate = (token: string) => post(`/api/coach/clients/${randomUUID()}/ditl/generations`, {}, token);
    const coach = await createSignedInUser(db, `regenerating-${randomUUID()}@example.com`, 'coach');
    for (let client = 0; client < 20; client++) expect((await regenerate(coach.token)).status).toBe(404);

    await expectRefused(await regenerate(coach.token), /Please try again in (about )?\d+ (minutes?|hour)\./);
    const anotherCoach = await createSignedInUser(db, `regenerating-${randomUUID()}@example.com`, 'coach');
    expect((await regenerate(anotherCoach.token)).status).toBe(404);
  });
});
