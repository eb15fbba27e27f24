import { randomUUID } from 'node:crypto';
import {
  addDays,
  clientPageSchema,
  clientDetailSchema,
  errorBodySchema,
  homeResponseSchema,
  nudgeDraftSchema,
  recordSparkResponseSchema,
  restDaysSchema,
  weekdayOf,
} from '@spark/contracts';
import { TINY_PNG, captureSpark } from '@spark/testing';
import { Client } from 'pg';
import { createSignedInUser, TEST_JWT_SECRET } from './ditl-auth';
import { type InProcessStack, startInProcessStack } from './in-process-stack';

type Person = { id: string; token: string };

describe('rest days and pause days through the gateway', () => {
  let stack: InProcessStack;
  let db: Client;
  let coach: Person;
  let client: Person;
  let otherClient: Person;
  let today: string;

  const call = (method: string, path: string, person?: Person, body?: unknown) =>
    fetch(`${stack.baseUrl}${path}`, {
      method,
      headers: { ...(person ? { authorization: `Bearer ${person.token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const capture = (person: Person) => captureSpark(stack.baseUrl, { authorization: `Bearer ${person.token}` }, { bytes: TINY_PNG, timeZone: 'UTC' });
  /** A client whose evolution began `startedDaysAgo` and whose last spark (a streak of `streak`) was `lastSparkDaysAgo`. */
  const seed = (person: Person, email: string, startedDaysAgo: number, lastSparkDaysAgo: number | null, streak = 0) =>
    db.query(
      `INSERT INTO progress.user_progress (user_id, email, full_name, evolution_start_date, evolution_end_date, last_spark_date, spark_count, streak_count, time_zone)
       VALUES ($1, $2, 'Maya Lindqvist', $3::date, $3::date + 90, $4::date, $5, $5, 'UTC')`,
      [person.id, email, addDays(today, -startedDaysAgo), lastSparkDaysAgo === null ? null : addDays(today, -lastSparkDaysAgo), streak],
    );

  beforeAll(async () => {
    stack = await startInProcessStack({ redisDb: 4, withNotifier: false, env: { JWT_SECRET: TEST_JWT_SECRET } });
    db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
    today = (await db.query(`SELECT to_char((now() AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS today`)).rows[0].today;
    coach = await createSignedInUser(db, 'coach@spark.test', 'coach');
    client = await createSignedInUser(db, 'maya@spark.test');
    otherClient = await createSignedInUser(db, 'other@spark.test');
    await seed(client, 'maya@spark.test', 3, 2, 4);
    // Maya's weekly rest day, chosen long ago, is yesterday's weekday.
    await db.query(`UPDATE progress.user_progress SET rest_weekday = $2 WHERE user_id = $1`, [client.id, weekdayOf(addDays(today, -1))]);
    await seed(otherClient, 'other@spark.test', 30, 1, 1);
  });
  afterAll(async () => {
    await db?.end();
    await stack?.stop();
  });

  it('refuses a pause day in the past (400 with the field error) and a date that is not one', async () => {
    const response = await call('POST', '/api/progress/me/pause-days', client, { date: addDays(today, -1) });
    expect(response.status).toBe(400);
    expect(errorBodySchema.parse(await response.json()).fieldErrors).toEqual({ date: ['A pause day is today or later: past days cannot be paused.'] });
    expect((await call('POST', '/api/progress/me/pause-days', client, { date: 'tomorrow' })).status).toBe(400);
  });

  it('takes pause days up to the allowance of the 14-day window, then answers 409', async () => {
    const first = await call('POST', '/api/progress/me/pause-days', client, { date: today });
    expect(first.status).toBe(201);
    expect(restDaysSchema.parse(await first.json())).toMatchObject({ pauseDays: [today], pauseDaysAllowance: 2, pauseDaysLeft: 1, today });
    expect((await call('POST', '/api/progress/me/pause-days', client, { date: addDays(today, 2) })).status).toBe(201);
    const refused = await call('POST', '/api/progress/me/pause-days', client, { date: addDays(today, 3) });
    expect(refused.status).toBe(409);
    expect(errorBodySchema.parse(await refused.json()).message).toMatch(
      /^You have used your 2 pause days for the 14 days until .+\. Your coach sets how many you get\.$/,
    );
    // The same day again changes nothing and is not refused.
    expect((await call('POST', '/api/progress/me/pause-days', client, { date: today })).status).toBe(201);
  });

  it('lets the coach set the allowance (a client cannot), and shows the pause days in the client’s home and the coach’s view', async () => {
    expect((await call('PUT', `/api/coach/clients/${client.id}/pause-allowance`, client, { pauseDaysAllowance: 5 })).status).toBe(403);
    expect((await call('PUT', `/api/coach/clients/${client.id}/pause-allowance`, coach, { pauseDaysAllowance: 15 })).status).toBe(400);
    expect((await call('PUT', `/api/coach/clients/${randomUUID()}/pause-allowance`, coach, { pauseDaysAllowance: 3 })).status).toBe(404);
    const set = await call('PUT', `/api/coach/clients/${client.id}/pause-allowance`, coach, { pauseDaysAllowance: 3 });
    expect(restDaysSchema.parse(await set.json())).toMatchObject({ pauseDaysAllowance: 3, pauseDaysLeft: 1 });
    expect((await call('POST', '/api/progress/me/pause-days', client, { date: addDays(today, 3) })).status).toBe(201);

    const home = homeResponseSchema.parse(await (await call('GET', '/api/progress/me', client)).json());
    expect(home.restDays?.pauseDays).toEqual([today, addDays(today, 2), addDays(today, 3)]);
    const coachView = homeResponseSchema.parse(await (await call('GET', `/api/progress/clients/${client.id}`, coach)).json());
    expect(coachView.restDays).toEqual(home.restDays);
    // Another client reads only their own home: none of Maya's pause days.
    const other = homeResponseSchema.parse(await (await call('GET', '/api/progress/me', otherClient)).json());
    expect(other.restDays?.pauseDays).toEqual([]);
    expect((await call('GET', `/api/progress/clients/${client.id}`, otherClient)).status).toBe(403);
  });

  it('keeps a paused client out of "Needs attention" and names the pause in the drafted nudge', async () => {
    // Maya: last spark two days ago, yesterday her rest day, today paused: no idle day counts, so she is not slipping.
    const before = clientDetailSchema.parse(await (await call('GET', `/api/coach/clients/${client.id}`, coach)).json());
    expect(before.client).toMatchObject({ restingToday: 'pause', daysSinceLastSpark: 2, attention: { slipping: false } });
    const yesterdayWeekday = weekdayOf(addDays(today, -1));
    expect((await call('PUT', '/api/progress/me/rest-day', client, { restWeekday: 9 })).status).toBe(400);
    // Choosing it again applies from today; the days before keep the rest day they had.
    const rest = await call('PUT', '/api/progress/me/rest-day', client, { restWeekday: yesterdayWeekday });
    expect(restDaysSchema.parse(await rest.json())).toMatchObject({
      restWeekday: yesterdayWeekday,
      restWeekdayFrom: today,
      earlierRestWeekday: yesterdayWeekday,
    });

    const list = clientPageSchema.parse(await (await call('GET', '/api/coach/clients?sort=attention', coach)).json());
    const maya = list.items.find((item) => item.userId === client.id);
    expect(maya).toMatchObject({ restingToday: 'pause', attention: { slipping: false, reason: null } });

    const draft = nudgeDraftSchema.parse(await (await call('GET', `/api/coach/clients/${client.id}/nudge-draft`, coach)).json());
    expect(draft.facts.pauseDays).toContain(today);
    expect(draft.message).toContain('as a pause day was the right call.');
  });

  it('flags a client whose idle days were not rest or pause days, even after choosing a missed weekday as rest day', async () => {
    expect((await call('PUT', '/api/progress/me/rest-day', otherClient, { restWeekday: weekdayOf(addDays(today, -1)) })).status).toBe(200);
    await db.query(`UPDATE progress.user_progress SET last_spark_date = $2 WHERE user_id = $1`, [otherClient.id, addDays(today, -3)]);
    const detail = clientDetailSchema.parse(await (await call('GET', `/api/coach/clients/${otherClient.id}`, coach)).json());
    expect(detail.client).toMatchObject({ restingToday: null, attention: { slipping: true, reason: 'No spark for 3 days' } });
  });

  it('carries the streak over the rest day and the pause day to the next spark, and refuses a pause day on a day already sparked', async () => {
    // Maya's streak of 4 ended two days ago; yesterday is her rest day and today a pause day. A spark today still counts.
    const spark = recordSparkResponseSchema.parse(await (await capture(client)).json());
    expect(spark.progress).toMatchObject({ streakCount: 5, lastSparkDate: today });
    const sparked = await call('POST', '/api/progress/me/pause-days', otherClient, { date: addDays(today, -3) });
    expect(sparked.status).toBe(400);
    await capture(otherClient);
    const again = await call('POST', '/api/progress/me/pause-days', otherClient, { date: today });
    expect(again.status).toBe(400);
    expect(errorBodySchema.parse(await again.json()).message).toBe('You already sparked that day, so it counts toward your streak.');
  });
});
