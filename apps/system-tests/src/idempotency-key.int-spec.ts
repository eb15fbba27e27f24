import { randomUUID } from 'node:crypto';
import { coachNoteSchema, errorBodySchema, generateDitlResponseSchema, privateNoteSchema } from '@spark/contracts';
import { eventually } from '@spark/testing';
import { Client } from 'pg';
import { createSignedInUser, requestGeneration, TEST_JWT_SECRET } from './ditl-auth';
import { nurseAnswers } from './ditl-recorded-model';
import { type InProcessStack, startInProcessStack } from './in-process-stack';

// A coach who presses again after the answer was lost sends the same Idempotency-Key: the command ran once, and the
// repeat gets its answer.
describe('coach commands with an Idempotency-Key', () => {
  let stack: InProcessStack;
  let db: Client;
  let coach: { id: string; token: string };
  let otherCoach: { id: string; token: string };

  beforeAll(async () => {
    stack = await startInProcessStack({ redisDb: 12, withNotifier: false, env: { JWT_SECRET: TEST_JWT_SECRET } });
    db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
    coach = await createSignedInUser(db, 'keyed-coach@example.com', 'coach');
    otherCoach = await createSignedInUser(db, 'other-keyed-coach@example.com', 'coach');
  });
  afterAll(async () => {
    await db.end();
    await stack.stop();
  });

  const post = (path: string, token: string, key: string | undefined, body?: unknown) =>
    fetch(`${stack.baseUrl}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        ...(key === undefined ? {} : { 'idempotency-key': key }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const notesOf = async (userId: string) =>
    (await db.query<{ message: string }>('SELECT message FROM progress.coach_notes WHERE user_id = $1', [userId])).rows.map((row) => row.message);
  const auditedNudges = async (userId: string) =>
    Number((await db.query(`SELECT count(*) FROM auth.audit_events WHERE action = 'client.nudge' AND target_id = $1`, [userId])).rows[0].count);
  /** A client who finished onboarding: notes need their progress. */
  const newClient = async () => {
    const email = `keyed-client-${randomUUID()}@example.com`;
    const { id } = await createSignedInUser(db, email);
    await db.query(
      `INSERT INTO progress.user_progress (user_id, email, full_name, evolution_start_date, evolution_end_date)
       VALUES ($1, $2, 'Kim Keyed', current_date, current_date + 90)`,
      [id, email],
    );
    return id;
  };

  it('adds a note once when the same note is sent twice with one key, and answers both with it', async () => {
    const client = await newClient();
    const key = randomUUID();
    const note = { message: 'One spark before lunch today.', isPinned: true };
    const first = await post(`/api/progress/clients/${client}/notes`, coach.token, key, note);
    const second = await post(`/api/progress/clients/${client}/notes`, coach.token, key, note);
    expect([first.status, second.status]).toEqual([201, 201]);
    const [firstNote, secondNote] = [coachNoteSchema.parse(await first.json()), coachNoteSchema.parse(await second.json())];
    expect(secondNote).toEqual(firstNote);
    expect(await notesOf(client)).toEqual([note.message]);
    await eventually(async () => (await auditedNudges(client)) >= 1, 5_000, 'the audit event');
    expect(await auditedNudges(client)).toBe(1);

    // A new key is a new note.
    expect((await post(`/api/progress/clients/${client}/notes`, coach.token, randomUUID(), note)).status).toBe(201);
    expect(await notesOf(client)).toHaveLength(2);
  });

  it('runs a key sent again with another client or other words as the new note it is, and audits it', async () => {
    const [client, otherClient] = [await newClient(), await newClient()];
    const key = randomUUID();
    const note = { message: 'Stretch before bed.', isPinned: false };
    expect((await post(`/api/progress/clients/${client}/notes`, coach.token, key, note)).status).toBe(201);
    const toOther = await post(`/api/progress/clients/${otherClient}/notes`, coach.token, key, note);
    expect(toOther.status).toBe(201);
    expect(coachNoteSchema.parse(await toOther.json()).message).toBe(note.message);
    expect(await notesOf(otherClient)).toEqual([note.message]);
    const reworded = { message: 'Stretch for five minutes before bed.', isPinned: false };
    expect((await post(`/api/progress/clients/${client}/notes`, coach.token, key, reworded)).status).toBe(201);
    expect((await notesOf(client)).sort()).toEqual([note.message, reworded.message].sort());
    await eventually(async () => (await auditedNudges(client)) === 2 && (await auditedNudges(otherClient)) === 1, 5_000, 'one audit event per note');
  });

  it('audits a note run again once its first outcome was forgotten, as the second note it is', async () => {
    const client = await newClient();
    const key = randomUUID();
    const note = { message: 'Water before coffee.', isPinned: false };
    expect((await post(`/api/progress/clients/${client}/notes`, coach.token, key, note)).status).toBe(201);
    await eventually(async () => (await auditedNudges(client)) === 1, 5_000, 'the first audit event');
    // What the ledger's retention does to every outcome after its time.
    await db.query('DELETE FROM progress.handled_requests');
    expect((await post(`/api/progress/clients/${client}/notes`, coach.token, key, note)).status).toBe(201);
    expect(await notesOf(client)).toEqual([note.message, note.message]);
    await eventually(async () => (await auditedNudges(client)) === 2, 5_000, 'an audit event for the second note');
  });

  it('adds one note when two requests with one key arrive at once', async () => {
    const client = await newClient();
    const key = randomUUID();
    const note = { message: 'Walk after dinner.', isPinned: false };
    const answers = await Promise.all([1, 2, 3].map(() => post(`/api/progress/clients/${client}/notes`, coach.token, key, note)));
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201]);
    const notes = await Promise.all(answers.map(async (answer) => coachNoteSchema.parse(await answer.json())));
    expect(new Set(notes.map((each) => each.id)).size).toBe(1);
    expect(await notesOf(client)).toEqual([note.message]);
  });

  it("keeps one coach's key apart from another's: the same key from someone else is their own command", async () => {
    const client = await newClient();
    const key = randomUUID();
    const mine = await post(`/api/progress/clients/${client}/private-notes`, coach.token, key, { note: 'Prefers mornings.' });
    const theirs = await post(`/api/progress/clients/${client}/private-notes`, otherCoach.token, key, { note: 'Travels on Fridays.' });
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    const [myNote, theirNote] = [privateNoteSchema.parse(await mine.json()), privateNoteSchema.parse(await theirs.json())];
    expect(theirNote.id).not.toBe(myNote.id);
    expect(theirNote.note).toBe('Travels on Fridays.');
    const again = privateNoteSchema.parse(
      await (await post(`/api/progress/clients/${client}/private-notes`, coach.token, key, { note: 'Prefers mornings.' })).json(),
    );
    expect(again).toEqual(myNote);
    const stored = await db.query('SELECT coach_id, note FROM progress.coach_private_notes WHERE user_id = $1 ORDER BY created_at', [client]);
    expect(stored.rows).toEqual([
      { coach_id: coach.id, note: 'Prefers mornings.' },
      { coach_id: otherCoach.id, note: 'Travels on Fridays.' },
    ]);
  });

  it('refuses a key that is not a UUID with 400 naming the header, and writes nothing', async () => {
    const client = await newClient();
    for (const key of ['not-a-uuid', '', `${randomUUID()}x`]) {
      const answer = await post(`/api/progress/clients/${client}/notes`, coach.token, key, { message: 'Never stored.' });
      expect(answer.status).toBe(400);
      const body = errorBodySchema.parse(await answer.json());
      expect(body.code).toBe('VALIDATION_FAILED');
      expect(Object.keys(body.fieldErrors ?? {})).toEqual(['Idempotency-Key']);
    }
    expect((await post(`/api/progress/clients/${client}/private-notes`, coach.token, 'nope', { note: 'Never stored.' })).status).toBe(400);
    expect((await post(`/api/coach/clients/${client}/ditl/generations`, coach.token, 'nope')).status).toBe(400);
    expect(await notesOf(client)).toEqual([]);
    expect((await db.query('SELECT 1 FROM progress.coach_private_notes WHERE user_id = $1', [client])).rowCount).toBe(0);
    expect(await auditedNudges(client)).toBe(0);
  });

  it('regenerates a Day in the Life once for one key, however often Regenerate is sent with it', async () => {
    const client = await createSignedInUser(db, 'keyed-ditl-client@example.com');
    const generations = async () =>
      (await db.query<{ id: string; status: string }>('SELECT id, status FROM ditl.generations WHERE user_id = $1', [client.id])).rows;
    const finished = (count: number) =>
      eventually(
        async () => ((await generations()).filter((row) => row.status === 'completed').length === count ? true : undefined),
        20_000,
        'the generations',
      );
    await requestGeneration(stack.baseUrl, client.token, nurseAnswers);
    await finished(1);

    const key = randomUUID();
    const regenerate = async () => {
      const answer = await post(`/api/coach/clients/${client.id}/ditl/generations`, coach.token, key);
      expect(answer.status).toBe(202);
      return generateDitlResponseSchema.parse(await answer.json()).generationId;
    };
    const first = await regenerate();
    await finished(2);
    // The first regeneration has finished, so without the key this would start a third.
    expect(await regenerate()).toBe(first);
    expect(await generations()).toHaveLength(2);
  });
});
