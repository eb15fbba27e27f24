import { randomBytes, randomUUID } from 'node:crypto';
import { JwtService } from '@nestjs/jwt';
import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER, clientDetailSchema, clientPageSchema, errorBodySchema } from '@spark/contracts';
import { requestStreamKey } from '@spark/messaging';
import { Client } from 'pg';
import { startGateway } from '../../gateway/src/main';
import { createSignedInUser, TEST_JWT_SECRET } from './ditl-auth';
import { type InProcessStack, startInProcessStack } from './in-process-stack';
import { TINY_PNG, captureSpark, eventually, onboardingAnswers } from '@spark/testing';

// Node's ICU still knows this old alias; PostgreSQL's time zone database dropped it.
const ZONE_ONLY_NODE_KNOWS = 'US/Pacific-New';

describe('input an attacker controls', () => {
  let stack: InProcessStack;
  let db: Client;
  let coach: Awaited<ReturnType<typeof createSignedInUser>>;

  const send = (method: string, path: string, body: string | FormData, token?: string) =>
    fetch(`${stack.baseUrl}${path}`, {
      method,
      headers: { ...(typeof body === 'string' ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body,
    });
  const get = (path: string, token: string) => fetch(`${stack.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
  const storedZone = async (userId: string) => (await db.query('SELECT time_zone FROM progress.user_progress WHERE user_id = $1', [userId])).rows[0]?.time_zone;
  const userCount = async (email: string) => Number((await db.query('SELECT count(*) FROM auth.users WHERE email = $1', [email])).rows[0].count);

  beforeAll(async () => {
    stack = await startInProcessStack({ env: { JWT_SECRET: TEST_JWT_SECRET } });
    db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
    coach = await createSignedInUser(db, 'coach@hostile.test', 'coach');
  });
  afterAll(async () => {
    await db?.end();
    await stack?.stop();
  });

  describe('secrets from the repository', () => {
    it.each(['compose-only-secret-change-me-0123456789', 'development-only-jwt-secret-change-me'])(
      'a production gateway with JWT_SECRET=%s does not start, so a token forged with it opens nothing',
      async (knownSecret) => {
        const env = {
          ...stack.env,
          NODE_ENV: 'production',
          PUBLIC_URL: 'https://spark.example.com',
          JWT_SECRET: knownSecret,
          S3_ACCESS_KEY_ID: 'AKIAIOSFODNN7EXAMPLE',
          S3_SECRET_ACCESS_KEY: randomBytes(32).toString('hex'),
          ...Object.fromEntries(['PIVOT', 'ALIGNMENT', 'EVOLUTION', 'TRANSFORMATION'].map((level) => [`PAYMENT_URL_${level}`, 'https://pay.example.com/'])),
        };
        let refusal: string | undefined;
        let forgedAdminStatus: number | undefined;
        try {
          const gateway = await startGateway(env);
          const forged = await new JwtService({ secret: knownSecret }).signAsync(
            { sub: randomUUID(), email: 'mallory@example.com', role: 'admin' },
            { issuer: ACCESS_TOKEN_ISSUER, audience: ACCESS_TOKEN_AUDIENCE, expiresIn: 900, algorithm: 'HS256' },
          );
          forgedAdminStatus = (
            await fetch(`${gateway.url.replace('[::1]', '127.0.0.1')}/api/auth/users?role=admin`, { headers: { authorization: `Bearer ${forged}` } })
          ).status;
          await gateway.stop();
        } catch (error) {
          refusal = String(error);
        }
        expect({ refusal, forgedAdminStatus }).toEqual({ refusal: expect.stringContaining('JWT_SECRET'), forgedAdminStatus: undefined });
      },
    );
  });

  describe('time zones PostgreSQL does not know', () => {
    it("records a capture sent with such a zone under the zone's current name, and the Clients list still answers", async () => {
      const client = await createSignedInUser(db, 'traveller@hostile.test');
      const captured = await captureSpark(stack.baseUrl, { authorization: `Bearer ${client.token}` }, { bytes: TINY_PNG, timeZone: ZONE_ONLY_NODE_KNOWS });
      expect(captured.status).toBe(201);
      expect(await storedZone(client.id)).toBe('America/Los_Angeles');
      const list = await get('/api/coach/clients?sort=attention', coach.token);
      expect(list.status).toBe(200);
      expect(clientPageSchema.parse(await list.json()).items.map((item) => item.userId)).toContain(client.id);
    });

    it("starts onboarding's first evolution in such a zone under its current name", async () => {
      const client = await createSignedInUser(db, 'onboarding@hostile.test');
      const answers = onboardingAnswers({ timeZone: ZONE_ONLY_NODE_KNOWS });

      expect((await send('POST', '/api/onboarding', JSON.stringify(answers), client.token)).status).toBe(200);
      expect(await storedZone(client.id)).toBe('America/Los_Angeles');
    });

    it('reads a stored zone the database no longer knows as UTC, so one row never breaks the list, the record or its trends', async () => {
      const legacy = randomUUID();
      await db.query(
        `INSERT INTO progress.user_progress (user_id, email, evolution_start_date, evolution_end_date, time_zone) VALUES ($1, 'legacy@hostile.test', current_date - 3, current_date + 87, $2)`,
        [legacy, ZONE_ONLY_NODE_KNOWS],
      );
      await db.query(
        `INSERT INTO progress.sparks (user_id, client_spark_id, spark_type, file_key, file_type) VALUES ($1, $2, 'photo', 'k/1.png', 'image/png')`,
        [legacy, randomUUID()],
      );

      for (const sort of ['attention', 'newest']) expect((await get(`/api/coach/clients?sort=${sort}`, coach.token)).status).toBe(200);
      const detail = await get(`/api/coach/clients/${legacy}`, coach.token);
      expect(detail.status).toBe(200);
      const { client, trends } = clientDetailSchema.parse(await detail.json());
      expect(client.timeZone).toBe('UTC');
      expect(trends.sparksPerDay.reduce((sum, day) => sum + day.count, 0)).toBe(1);
    });
  });

  describe("fields that are not the caller's to set", () => {
    it("refuses an onboarding that sets its own evolution length, a coach's field, with 400 and starts nothing", async () => {
      const client = await createSignedInUser(db, `own-timeline-${randomUUID()}@hostile.test`);
      const response = await send('POST', '/api/onboarding', JSON.stringify({ ...onboardingAnswers(), customEvolutionDays: 7 }), client.token);
      const error = errorBodySchema.parse(await response.json());
      expect({ status: response.status, fieldErrors: error.fieldErrors }).toEqual({
        status: 400,
        fieldErrors: { _: [expect.stringContaining('customEvolutionDays')] },
      });
      expect(await storedZone(client.id)).toBeUndefined();
    });
  });

  describe('the service bus', () => {
    it('runs nothing for an entry written straight into a stream without a request id (auth.invite as admin)', async () => {
      const stream = requestStreamKey(stack.env.BUS_PREFIX ?? '', 'auth');
      await stack.redis.xadd(stream, '*', 'p', 'auth.invite', 'd', JSON.stringify({ email: 'mallory@hostile.test', role: 'admin' }), 'c', 'crafted');

      // Handled entries are acknowledged and deleted: once the stream is empty the entry has been dealt with.
      await eventually(async () => (await stack.redis.xlen(stream)) === 0, 5_000, 'the stream to be emptied');
      expect(await userCount('mallory@hostile.test')).toBe(0);
    });
  });

  describe('values the contracts took but PostgreSQL refuses', () => {
    const cursorOf = (key: string) => Buffer.from(`${key}|${randomUUID()}`).toString('base64url');
    const expectFieldError = async (response: Response, field: string) => {
      const error = errorBodySchema.parse(await response.json());
      expect({ status: response.status, fields: Object.keys(error.fieldErrors ?? {}) }).toEqual({ status: 400, fields: [field] });
    };

    it("answers a page cursor whose key is no timestamp, date or number PostgreSQL reads with 400, a visitor's too", async () => {
      await expectFieldError(await fetch(`${stack.baseUrl}/api/log/posts?cursor=${cursorOf('1')}`), 'cursor');
      await expectFieldError(await get(`/api/coach/clients?sort=newest&cursor=${cursorOf('1-2-3-')}`, coach.token), 'cursor');
      await expectFieldError(await get(`/api/coach/clients?sort=attention&cursor=${cursorOf('2026-11-23')}`, coach.token), 'cursor');
    });

    it.each(['0000-01-01T00:00:00Z', '2026-11-23T10:00:00+23:59', '9999-12-31T23:00:00-05:00', '0001-01-01T00:00:00+01:00', '0000-12-31T23:00:00-05:00'])(
      'answers an onboarding time of %s with 400 and stores nothing',
      async (time) => {
        const user = await createSignedInUser(db, `onboarded-${randomUUID()}@hostile.test`);
        await expectFieldError(await send('PATCH', '/api/auth/user', JSON.stringify({ onboarding_completed_at: time }), user.token), 'onboarding_completed_at');
        const stored = await db.query('SELECT onboarding_completed_at FROM auth.users WHERE id = $1', [user.id]);
        expect(stored.rows[0].onboarding_completed_at).toBeNull();
      },
    );
  });

  describe('characters PostgreSQL cannot store', () => {
    const NUL = '"before\\u0000after"';
    const LONE_SURROGATE = '"half an emoji \\ud83d"';

    it.each([
      ['POST', '/api/leads', (text: string) => `{"email":"lead-${randomUUID()}@hostile.test","interest":${text}}`, 'interest'],
      ['POST', '/api/investors/early-access', (text: string) => `{"email":"ea-${randomUUID()}@hostile.test","interest":${text}}`, 'interest'],
      ['POST', '/api/investors/deck-requests', (text: string) => `{"email":"deck-${randomUUID()}@hostile.test","interest":${text}}`, 'interest'],
      ['PATCH', '/api/auth/user', (text: string) => `{"full_name":${text}}`, 'full_name'],
    ])('%s %s answers a NUL byte or a lone surrogate with 400 naming the field', async (method, path, body, field) => {
      const user = await createSignedInUser(db, `writer-${randomUUID()}@hostile.test`);
      for (const text of [NUL, LONE_SURROGATE]) {
        const response = await send(method, path, body(text), user.token);
        const error = errorBodySchema.parse(await response.json());
        expect({ status: response.status, fields: Object.keys(error.fieldErrors ?? {}) }).toEqual({ status: 400, fields: [field] });
      }
      const written = await db.query(
        `SELECT (SELECT count(*) FROM leads.leads WHERE email LIKE '%@hostile.test')::int AS leads,
                (SELECT count(*) FROM investor.investors WHERE email LIKE '%@hostile.test')::int AS investors,
                (SELECT count(*) FROM auth.users WHERE id = $1 AND full_name IS NOT NULL)::int AS names`,
        [user.id],
      );
      expect(written.rows[0]).toEqual({ leads: 0, investors: 0, names: 0 });
    });
  });
});
