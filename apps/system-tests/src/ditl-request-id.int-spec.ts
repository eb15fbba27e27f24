import { randomUUID } from 'node:crypto';
import { ditlStatusResponseSchema, generateDitlResponseSchema } from '@spark/contracts';
import { eventually } from '@spark/testing';
import { Client } from 'pg';
import { createSignedInUser, TEST_JWT_SECRET } from './ditl-auth';
import { mayaAnswers } from './ditl-recorded-model';
import { type InProcessStack, startInProcessStack } from './in-process-stack';
import { untilIdle } from './until-idle';

describe('a DITL request sent again with the id the device chose for it', () => {
  let stack: InProcessStack;
  let db: Client;

  beforeAll(async () => {
    // No model configured: the offline planner writes every plan, and the budget is two a day.
    stack = await startInProcessStack({ env: { JWT_SECRET: TEST_JWT_SECRET, DITL_DAILY_GENERATIONS: '2' } });
    db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await stack.stop();
  });

  const send = (token: string, requestId: string) =>
    fetch(`${stack.baseUrl}/api/ditl/generations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ onboardingData: mayaAnswers, requestId }),
    });
  const generationOf = async (response: Response) => {
    expect(response.status).toBe(202);
    return generateDitlResponseSchema.parse(await response.json()).generationId;
  };
  const completed = (generationId: string, token: string) =>
    eventually(
      async () => {
        const answer = await fetch(`${stack.baseUrl}/api/ditl/generations/${generationId}`, { headers: { authorization: `Bearer ${token}` } });
        return ditlStatusResponseSchema.parse(await answer.json()).status === 'completed' || undefined;
      },
      20_000,
      'the generation completed',
    );
  const generationsOf = async (userId: string) =>
    (await db.query<{ id: string }>(`SELECT id FROM ditl.generations WHERE user_id = $1`, [userId])).rows.map((row) => row.id);
  const mailsTo = (email: string) => stack.smtp.messages.filter((mail) => mail.to.includes(email) && mail.subject === 'Your Day in the Life is ready');

  it('answers a try sent after its generation completed with that generation: one generation, one ready e-mail', async () => {
    const client = await createSignedInUser(db, 'lost-answer@example.com');
    const requestId = randomUUID();
    const first = await generationOf(await send(client.token, requestId));
    await completed(first, client.token);

    await expect(generationOf(await send(client.token, requestId))).resolves.toBe(first);
    await untilIdle(stack);
    expect(await generationsOf(client.id)).toEqual([first]);
    expect(mailsTo(client.email)).toHaveLength(1);
  });

  it('answers two tries in flight at once with one generation', async () => {
    const client = await createSignedInUser(db, 'two-tries@example.com');
    const requestId = randomUUID();
    const [one, other] = await Promise.all([send(client.token, requestId), send(client.token, requestId)]);
    const generationId = await generationOf(one);
    await expect(generationOf(other)).resolves.toBe(generationId);
    await completed(generationId, client.token);
    await untilIdle(stack);
    expect(await generationsOf(client.id)).toEqual([generationId]);
    expect(mailsTo(client.email)).toHaveLength(1);
  });

  it("keeps one client's id their own: another client sending the same id gets a generation of their own", async () => {
    const client = await createSignedInUser(db, 'first-of-two@example.com');
    const another = await createSignedInUser(db, 'second-of-two@example.com');
    const requestId = randomUUID();
    const theirs = await generationOf(await send(client.token, requestId));
    const its = await generationOf(await send(another.token, requestId));
    expect(its).not.toBe(theirs);
    expect(await generationsOf(another.id)).toEqual([its]);
    await completed(theirs, client.token);
    await completed(its, another.token);
  });

  it('answers a try that found another request under way with that one again once it has ended', async () => {
    // One a page of the release before asked for, without an id, still under way when this request's first try comes.
    const client = await createSignedInUser(db, 'under-way@example.com');
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO ditl.generations (id, user_id, email, answers, status) VALUES (gen_random_uuid(), $1, $2, $3, 'generating') RETURNING id`,
      [client.id, client.email, JSON.stringify(mayaAnswers)],
    );
    const underWay = rows[0]?.id;
    const requestId = randomUUID();
    await expect(generationOf(await send(client.token, requestId))).resolves.toBe(underWay);
    await db.query(`UPDATE ditl.generations SET status = 'failed', error = 'test' WHERE id = $1`, [underWay]);
    await expect(generationOf(await send(client.token, requestId))).resolves.toBe(underWay);
    expect(await generationsOf(client.id)).toEqual([underWay]);
  });

  it("refuses in the database a second generation with one client's request id, whatever the code does", async () => {
    const client = await createSignedInUser(db, 'one-per-request@example.com');
    const another = await createSignedInUser(db, 'same-id-elsewhere@example.com');
    const requestId = randomUUID();
    const insert = (userId: string, email: string) =>
      db.query(`INSERT INTO ditl.generations (id, user_id, email, answers, status, request_id) VALUES (gen_random_uuid(), $1, $2, $3, 'failed', $4)`, [
        userId,
        email,
        JSON.stringify(mayaAnswers),
        requestId,
      ]);
    await insert(client.id, client.email);
    await expect(insert(client.id, client.email)).rejects.toMatchObject({ code: '23505', constraint: 'generations_one_per_request' });
    await expect(insert(another.id, another.email)).resolves.toMatchObject({ rowCount: 1 });
  });

  it('counts a request against the daily budget once, however often it is sent, and answers it after the budget is spent', async () => {
    const client = await createSignedInUser(db, 'budget@example.com');
    const firstId = randomUUID();
    const first = await generationOf(await send(client.token, firstId));
    await completed(first, client.token);
    await expect(generationOf(await send(client.token, firstId))).resolves.toBe(first);

    // Two a day: the repeat did not count, so a second request is still taken, and a third is refused.
    const second = await generationOf(await send(client.token, randomUUID()));
    await completed(second, client.token);
    expect((await send(client.token, randomUUID())).status).toBe(429);
    await expect(generationOf(await send(client.token, firstId))).resolves.toBe(first);
    expect((await generationsOf(client.id)).sort()).toEqual([first, second].sort());
  });
});
