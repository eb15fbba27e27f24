import { randomUUID } from 'node:crypto';
import { errorBodySchema, nudgeDraftSchema, weeklyCheckInSchema } from '@spark/contracts';
import { Client } from 'pg';
import { createSignedInUser, TEST_JWT_SECRET } from './ditl-auth';
import { type FakeModel, startFakeModel } from './ditl-fake-model';
import { type InProcessStack, startInProcessStack } from './in-process-stack';

const weekday = (daysAgo: number) => new Date(Date.now() - daysAgo * 864e5).toLocaleDateString('en-US', { weekday: 'long', timeZone: 'UTC' });

describe("the coach's drafted nudge and Friday check-in", () => {
  let stack: InProcessStack;
  let db: Client;
  let model: FakeModel;
  let coach: { token: string };
  let client: { id: string; token: string };
  let otherClient: { token: string };

  const get = (path: string, token?: string) => fetch(`${stack.baseUrl}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

  /** Maya: a 6-day streak that ended two days ago (no spark yesterday), her goal and challenge from onboarding. */
  const seedMaya = async (userId: string) => {
    await db.query(
      `INSERT INTO progress.user_progress (user_id, email, full_name, evolution_start_date, evolution_end_date, last_spark_date, spark_count, streak_count, time_zone)
       VALUES ($1, 'maya@spark.test', 'Maya Lindqvist', (now() AT TIME ZONE 'UTC')::date - 19, (now() AT TIME ZONE 'UTC')::date + 71, (now() AT TIME ZONE 'UTC')::date - 2, 6, 6, 'UTC')`,
      [userId],
    );
    await db.query(`INSERT INTO progress.onboarding_data (user_id, data) VALUES ($1, $2)`, [
      userId,
      JSON.stringify({ full_name: 'Maya Lindqvist', transformation_goal: 'Run a half marathon by June', biggest_challenge: 'Too tired after work' }),
    ]);
    // One spark a day from six days ago to two days ago, at noon UTC; the first carries a note.
    await db.query(
      `INSERT INTO progress.sparks (user_id, client_spark_id, spark_type, file_key, file_type, note, created_at)
       SELECT $1::uuid, gen_random_uuid(), 'photo', 'sparks/' || $1::text || '/' || n || '.jpg', 'image/jpeg', CASE WHEN n = 6 THEN 'Ran 5 km before work' END,
              date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - n * interval '1 day' + interval '12 hours'
       FROM generate_series(2, 6) AS n`,
      [userId],
    );
  };

  beforeAll(async () => {
    model = await startFakeModel();
    model.mode = 'invalid';
    stack = await startInProcessStack({
      withNotifier: false,
      env: { JWT_SECRET: TEST_JWT_SECRET, OPENAI_BASE_URL: model.baseUrl, COACHING_MODEL_TIMEOUT_MS: '2000' },
    });
    db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
    coach = await createSignedInUser(db, 'coach@spark.test', 'coach');
    client = await createSignedInUser(db, 'maya@spark.test');
    otherClient = await createSignedInUser(db, 'other@spark.test');
    await seedMaya(client.id);
  });
  afterAll(async () => {
    await db?.end();
    await stack?.stop();
    await model?.close();
  });
  beforeEach(() => {
    model.calls.length = 0;
    model.replies.length = 0;
  });

  it('lets only coaches and admins read drafts: 401 signed out, 403 for the client and another client, 404 for no such client', async () => {
    for (const route of ['nudge-draft', 'weekly-check-in']) {
      expect((await get(`/api/coach/clients/${client.id}/${route}`)).status).toBe(401);
      expect((await get(`/api/coach/clients/${client.id}/${route}`, client.token)).status).toBe(403);
      expect((await get(`/api/coach/clients/${client.id}/${route}`, otherClient.token)).status).toBe(403);
      expect((await get(`/api/coach/clients/${randomUUID()}/${route}`, coach.token)).status).toBe(404);
      expect((await get(`/api/coach/clients/not-a-uuid/${route}`, coach.token)).status).toBe(400);
    }
  });

  it('drafts 60 times an hour for one coach, both drafts together, then answers 429 without calling the model; another coach is unaffected', async () => {
    const busyCoach = await createSignedInUser(db, `busy-coach-${randomUUID()}@spark.test`, 'coach');
    for (let draft = 0; draft < 60; draft++) {
      const route = draft % 2 === 0 ? 'nudge-draft' : 'weekly-check-in';
      expect((await get(`/api/coach/clients/${client.id}/${route}`, busyCoach.token)).status).toBe(200);
    }
    const modelCalls = model.calls.length;

    for (const route of ['nudge-draft', 'weekly-check-in']) {
      const refused = await get(`/api/coach/clients/${client.id}/${route}`, busyCoach.token);
      expect(refused.status).toBe(429);
      const body = errorBodySchema.parse(await refused.json());
      expect(body).toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: Number(refused.headers.get('retry-after')) });
      expect(body.message).toMatch(/^Too many requests\. Please try again in (about )?\d+ (minutes?|hour)\.$/);
    }
    expect(model.calls).toHaveLength(modelCalls);
    expect((await get(`/api/coach/clients/${client.id}/nudge-draft`, coach.token)).status).toBe(200);
  });

  it('asks the model again with the violations when its draft invents a number, and keeps the corrected draft', async () => {
    model.replies.push(
      { message: 'Hi Maya, your 12-day streak ended. You can get it back!' },
      { message: 'Hi Maya, your 6-day streak paused yesterday. One small spark today toward your half marathon starts the next run.' },
    );
    const draft = nudgeDraftSchema.parse(await (await get(`/api/coach/clients/${client.id}/nudge-draft`, coach.token)).json());
    expect(draft).toMatchObject({
      writer: 'openai',
      message: 'Hi Maya, your 6-day streak paused yesterday. One small spark today toward your half marathon starts the next run.',
    });
    expect(draft.facts).toMatchObject({
      firstName: 'Maya',
      situation: 'streak-broke',
      daysSinceLastSpark: 2,
      endedStreak: { days: 6 },
      goal: 'Run a half marathon by June',
      challenge: 'Too tired after work',
      sparksThisWeek: 5,
    });
    expect(model.calls).toHaveLength(2);
    expect(JSON.parse(model.calls[0]?.userMessage ?? '{}')).toMatchObject({
      client: { goal: 'Run a half marathon by June', challenge: 'Too tired after work' },
    });
    expect(model.calls[1]?.messages.at(-1)?.content).toContain('These numbers are not in the facts: 12.');
    // Nothing was sent: the client has no note until the coach sends one.
    const notes = await db.query(`SELECT 1 FROM progress.coach_notes WHERE user_id = $1`, [client.id]);
    expect(notes.rowCount).toBe(0);
  });

  it('gives the offline draft, naming the real facts, when the model breaks the rules twice', async () => {
    model.replies.push({ message: 'Hope all is well!' }, { message: 'Hope all is well!' });
    const draft = nudgeDraftSchema.parse(await (await get(`/api/coach/clients/${client.id}/nudge-draft`, coach.token)).json());
    expect(draft.writer).toBe('offline');
    expect(draft.message).toContain(`Hi Maya, your 6-day streak paused yesterday after your spark on ${weekday(2)}.`);
    expect(draft.message).toContain('“Run a half marathon by June”');
    expect(draft.message).toContain('(“Too tired after work”)');
    expect(model.calls).toHaveLength(2);
  });

  it("gives the offline draft, without asking again, when the model's answer is cut off at its cap", async () => {
    model.mode = 'cut-off';
    try {
      const draft = nudgeDraftSchema.parse(await (await get(`/api/coach/clients/${client.id}/nudge-draft`, coach.token)).json());
      expect(draft.writer).toBe('offline');
      expect(model.calls).toHaveLength(1);
      // A draft holds at most 900 characters: room for one a little longer (sent back for a revision), not for an essay.
      expect(model.calls[0]?.maxCompletionTokens).toBeGreaterThanOrEqual(300);
      expect(model.calls[0]?.maxCompletionTokens).toBeLessThanOrEqual(1_000);
    } finally {
      model.mode = 'invalid';
    }
  });

  it('sums up the week for the Friday check-in with signed thumbnails, what slipped and what went well', async () => {
    const checkIn = weeklyCheckInSchema.parse(await (await get(`/api/coach/clients/${client.id}/weekly-check-in`, coach.token)).json());
    expect(checkIn.sparks).toHaveLength(5);
    expect(checkIn.sparks.every((spark) => spark.fileUrl?.includes(spark.fileKey))).toBe(true);
    expect(checkIn.days.map((day) => day.sparks)).toEqual([1, 1, 1, 1, 1, 0, 0]);
    expect(checkIn.missedDays).toEqual([checkIn.days[5]?.date]);
    expect(checkIn.longestRun).toMatchObject({ days: 5, to: checkIn.days[4]?.date });
    expect(checkIn.clientNotes).toEqual(['Ran 5 km before work']);
    // The fake model answers with JSON the draft schema rejects: the offline summary stands in.
    expect(checkIn.writer).toBe('offline');
    expect(checkIn.summary).toContain(`What slipped: no spark on ${weekday(1)}.`);
    expect(checkIn.summary).toContain(`What went well: your 5-day run from ${weekday(6)} to ${weekday(2)} and you wrote “Ran 5 km before work”.`);
  });

  it('keeps a check-in summary the model wrote when it names the week truthfully', async () => {
    const summary = `Hi Maya, 5 sparks this week and a 5-day run from ${weekday(6)} to ${weekday(2)}. You missed ${weekday(1)}; your half marathon is still on.`;
    model.replies.push({ message: summary });
    const checkIn = weeklyCheckInSchema.parse(await (await get(`/api/coach/clients/${client.id}/weekly-check-in`, coach.token)).json());
    expect(checkIn).toMatchObject({ writer: 'openai', summary });
    expect(JSON.parse(model.calls[0]?.userMessage ?? '{}')).toMatchObject({
      week: { sparkDays: 5, missedDays: [checkIn.days[5]?.date] },
      client: { notesThisWeek: ['Ran 5 km before work'] },
    });
  });
});
