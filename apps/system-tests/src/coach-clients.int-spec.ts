import { randomUUID } from 'node:crypto';
import { JwtService } from '@nestjs/jwt';
import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER, clientDetailSchema, clientPageSchema, clientSummarySchema } from '@spark/contracts';
import { Client } from 'pg';
import { type InProcessStack, startInProcessStack } from './in-process-stack';

const JWT_SECRET = 'coach-clients-test-secret-0123456789';

describe('the coach dashboard API: clients', () => {
  let stack: InProcessStack;
  let db: Client;
  const coach = new JwtService({ secret: JWT_SECRET }).sign(
    { sub: randomUUID(), email: 'coach@spark.test', role: 'coach' },
    { issuer: ACCESS_TOKEN_ISSUER, audience: ACCESS_TOKEN_AUDIENCE, expiresIn: 600 },
  );
  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${stack.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${coach}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  /** A client whose evolution started `startedDaysAgo` and whose last spark was `sparkedDaysAgo` (UTC days). */
  const seedClient = async (name: string, startedDaysAgo: number, sparkedDaysAgo: number | null, status = 'active') => {
    const userId = randomUUID();
    await db.query(
      `INSERT INTO progress.user_progress (user_id, email, full_name, evolution_start_date, evolution_end_date, last_spark_date, spark_count, status)
       VALUES ($1, $2, $3, current_date - $4::int, current_date - $4::int + 90, current_date - $5::int, $6, $7)`,
      [userId, `${name}@spark.test`, name, startedDaysAgo, sparkedDaysAgo, sparkedDaysAgo === null ? 0 : 1, status],
    );
    return userId;
  };

  beforeAll(async () => {
    stack = await startInProcessStack({ redisDb: 14, withNotifier: false, env: { JWT_SECRET } });
    db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await stack.stop();
  });

  it('lists clients newest evolution first in pages, or who needs attention first', async () => {
    const steady = await seedClient('steady', 10, 0);
    const slipping = await seedClient('slipping', 20, 5);
    const broken = await seedClient('broken', 30, 2);
    const paused = await seedClient('paused', 40, 30, 'paused');

    const first = clientPageSchema.parse(await (await call('GET', '/api/coach/clients?limit=2')).json());
    expect(first.total).toBe(4);
    expect(first.items.map((client) => client.userId)).toEqual([steady, slipping]);
    const second = clientPageSchema.parse(await (await call('GET', `/api/coach/clients?limit=2&cursor=${first.nextCursor}`)).json());
    expect(second.items.map((client) => client.userId)).toEqual([broken, paused]);
    expect(second.nextCursor).toBeNull();

    const attention = clientPageSchema.parse(await (await call('GET', '/api/coach/clients?sort=attention')).json());
    expect(attention.items.map((client) => client.userId)).toEqual([slipping, broken, steady, paused]);
    expect(attention.items.map((client) => client.attention.reason)).toEqual(['No spark for 5 days', 'Streak broken: no spark yesterday', null, null]);
  });

  it('pages the attention sort by days without a spark, as numbers (12 before 9)', async () => {
    await seedClient('idle-12', 40, 12);
    await seedClient('idle-9', 40, 9);
    await seedClient('idle-3', 40, 3);
    const all = clientPageSchema.parse(await (await call('GET', '/api/coach/clients?sort=attention&limit=100')).json());
    const idle = all.items.filter((client) => client.status === 'active').map((client) => client.daysSinceLastSpark ?? 0);
    expect(idle).toEqual([...idle].sort((a, b) => b - a));
    expect(idle.slice(0, 2)).toEqual([12, 9]);
    const paged: string[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const page = clientPageSchema.parse(await (await call('GET', `/api/coach/clients?sort=attention&limit=2${cursor ? `&cursor=${cursor}` : ''}`)).json());
      paged.push(...page.items.map((client) => client.userId));
      cursor = page.nextCursor;
    }
    expect(paged).toEqual(all.items.map((client) => client.userId));
  });

  it('pages the attention sort as scoring every client would, with rest days, pauses and zones a day apart', async () => {
    const zones = ['UTC', 'Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Asia/Kolkata'];
    for (let i = 0; i < 36; i++) {
      const userId = await seedClient(`varied-${i}`, 20 + ((i * 7) % 40), i % 4 === 0 ? null : (i * 5) % 25, i % 9 === 0 ? 'paused' : 'active');
      await db.query(`UPDATE progress.user_progress SET time_zone = $2, rest_weekday = $3 WHERE user_id = $1`, [
        userId,
        zones[i % zones.length],
        i % 3 === 0 ? i % 7 : null,
      ]);
      // Clients who paused on many of their idle days score below others whose idle days began later.
      if (i % 5 === 0) {
        await db.query(`INSERT INTO progress.pause_days (user_id, pause_date) SELECT $1, current_date - d FROM generate_series(0, 30, 2) d`, [userId]);
      }
    }
    // Fewer active clients than one page of 100 holds: every one of them is scored for it.
    const all = clientPageSchema.parse(await (await call('GET', '/api/coach/clients?sort=attention&limit=100')).json());
    for (const limit of [1, 3, 7]) {
      const paged: string[] = [];
      let cursor: string | null = '';
      while (cursor !== null) {
        const page = clientPageSchema.parse(
          await (await call('GET', `/api/coach/clients?sort=attention&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`)).json(),
        );
        paged.push(...page.items.map((client) => client.userId));
        cursor = page.nextCursor;
      }
      expect(paged).toEqual(all.items.map((client) => client.userId));
    }
  });

  it('shows a client with trends over the cycle, and edits the record', async () => {
    const userId = await seedClient('trendy', 3, 0);
    await db.query(
      `INSERT INTO progress.sparks (user_id, client_spark_id, spark_type, file_key, file_type, created_at)
       VALUES ($1, gen_random_uuid(), 'photo', 'k1', 'image/jpeg', date_trunc('day', now()) + interval '8 hours'),
              ($1, gen_random_uuid(), 'photo', 'k2', 'image/jpeg', date_trunc('day', now()) - interval '1 day' + interval '19 hours')`,
      [userId],
    );
    const detail = clientDetailSchema.parse(await (await call('GET', `/api/coach/clients/${userId}`)).json());
    expect(detail.trends.sparksPerDay).toHaveLength(4);
    expect(detail.trends.sparksPerDay.slice(-2).map((day) => day.count)).toEqual([1, 1]);
    expect(detail.trends.timeOfDay).toEqual({ morning: 1, afternoon: 0, evening: 1, night: 0 });
    expect(detail.trends.daysSinceLastSpark).toBe(0);

    const updated = clientSummarySchema.parse(
      await (await call('PATCH', `/api/coach/clients/${userId}`, { transformationGoal: 'Run a 10k', status: 'paused', customEvolutionDays: 21 })).json(),
    );
    expect(updated).toMatchObject({ transformationGoal: 'Run a 10k', status: 'paused', customEvolutionDays: 21 });
    expect(updated.evolutionEndDate).toBe(new Date(Date.parse(`${updated.evolutionStartDate}T00:00:00Z`) + 21 * 864e5).toISOString().slice(0, 10));
  });

  it('answers 404 for an unknown client and 400 for an invalid edit', async () => {
    expect((await call('GET', `/api/coach/clients/${randomUUID()}`)).status).toBe(404);
    expect((await call('PATCH', `/api/coach/clients/${randomUUID()}`, { status: 'paused' })).status).toBe(404);
    const userId = await seedClient('invalid', 1, 0);
    expect((await call('PATCH', `/api/coach/clients/${userId}`, { status: 'sleeping' })).status).toBe(400);
    expect((await call('PATCH', `/api/coach/clients/${userId}`, { customEvolutionDays: 0 })).status).toBe(400);
  });
});
