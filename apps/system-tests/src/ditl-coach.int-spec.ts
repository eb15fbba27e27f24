import { randomUUID } from 'node:crypto';
import {
  type CoachDitlView,
  coachDitlViewSchema,
  currentDitlResponseSchema,
  ditlPresentationResponseSchema,
  finishOnboardingResponseSchema,
  generateDitlResponseSchema,
  onboardingDataSchema,
  type OnboardingAnswersInput,
} from '@spark/contracts';
import { eventually } from '@spark/testing';
import { Client } from 'pg';
import { createSignedInUser, requestGeneration, signedInAs, TEST_JWT_SECRET } from './ditl-auth';
import { nurseAnswers } from './ditl-recorded-model';
import { type InProcessStack, startInProcessStack } from './in-process-stack';
import { untilIdle } from './until-idle';

const challengeEdit = { narrative: 'At 3 AM you walk one lap of the ward, then eat the snack you packed.', habit: 'One lap of the ward before any snack.' };

describe("the coach's view of a client's Day in the Life", () => {
  let stack: InProcessStack;
  let db: Client;

  beforeAll(async () => {
    // No model configured: the offline planner writes every plan, and the budget is three a day.
    stack = await startInProcessStack({ env: { JWT_SECRET: TEST_JWT_SECRET, DITL_DAILY_GENERATIONS: '3' } });
    db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await stack.stop();
  });

  const call = (method: string, path: string, token: string, body?: unknown) =>
    fetch(`${stack.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  const viewAs = async (userId: string, token: string) => {
    const response = await call('GET', `/api/coach/clients/${userId}/ditl`, token);
    expect(response.status).toBe(200);
    return coachDitlViewSchema.parse(await response.json());
  };
  const finishedView = (userId: string, token: string, generationId: string) =>
    eventually(
      async () => {
        const view = await viewAs(userId, token);
        return view.latest?.generationId === generationId && view.latest.status === 'completed' ? view : undefined;
      },
      20_000,
      'the finished generation in the coach view',
    );
  const clientPage = async (token: string) => {
    const current = currentDitlResponseSchema.parse(await (await call('GET', '/api/ditl/generations/current', token)).json());
    const page = await call('GET', current.generation?.presentationUrl ?? '', token);
    expect(page.status).toBe(200);
    return { generationId: current.generation?.generationId, html: ditlPresentationResponseSchema.parse(await page.json()).html };
  };
  const challengeOf = (view: CoachDitlView) => view.current?.moments.find((moment) => moment.key === 'challenge');
  /** How many days the client's page asks them to repeat their day for. */
  const lengthStated = async (token: string) => /Repeat it imperfectly for (\d+) days/.exec((await clientPage(token)).html)?.[1];

  it('shows the plan to coaches only, keeps an edit across a regenerate from changed answers, and resets it', async () => {
    const client = await createSignedInUser(db, 'dana@example.com');
    const coach = await createSignedInUser(db, 'coach@example.com', 'coach');
    const admin = await createSignedInUser(db, 'admin@example.com', 'admin');
    const otherClient = await createSignedInUser(db, 'other@example.com');
    const base = `/api/coach/clients/${client.id}/ditl`;

    expect(await viewAs(client.id, coach.token)).toEqual({ latest: null, current: null });
    expect((await call('POST', `${base}/generations`, coach.token)).status).toBe(404);

    const askAsClient = (onboardingData: OnboardingAnswersInput) => requestGeneration(stack.baseUrl, client.token, onboardingData);
    const first = await askAsClient(nurseAnswers);
    const before = await finishedView(client.id, coach.token, first);
    expect(before.latest).toMatchObject({ status: 'completed', planner: 'offline' });
    expect(before.current?.moments.map((moment) => moment.key)).toEqual(expect.arrayContaining(['wake', 'challenge', 'windDown']));
    const generated = challengeOf(before);
    expect(generated?.time).toBe('3:00 AM');

    // Clients, whoever's plan it is, may neither read nor change it here.
    for (const someone of [client, otherClient]) {
      expect((await call('GET', base, someone.token)).status).toBe(403);
      expect((await call('PUT', `${base}/moments/challenge`, someone.token, challengeEdit)).status).toBe(403);
      expect((await call('POST', `${base}/generations`, someone.token)).status).toBe(403);
      expect((await call('DELETE', `${base}/moments/challenge`, someone.token)).status).toBe(403);
    }
    expect((await call('PUT', `${base}/moments/challenge`, coach.token, { narrative: ' ', habit: 'x' })).status).toBe(400);
    expect((await call('PUT', `${base}/moments/lunch`, coach.token, challengeEdit)).status).toBe(400);
    expect((await call('PUT', `${base}/moments/evening-2`, coach.token, challengeEdit)).status).toBe(404);

    const edited = await call('PUT', `${base}/moments/challenge`, coach.token, challengeEdit);
    expect(edited.status).toBe(200);
    expect(challengeOf(coachDitlViewSchema.parse(await edited.json()))).toMatchObject({
      ...challengeEdit,
      generated: { narrative: generated?.narrative, habit: generated?.habit },
    });
    expect((await clientPage(client.token)).html).toContain('At 3 AM you walk one lap of the ward');

    // The client changes their answers (onboarding again asks for a new plan); the coach's regenerate plans from them.
    const changed = await askAsClient({
      ...nurseAnswers,
      typicalDay: 'I sleep from 8 AM to 2 PM, work 6 PM to 6 AM four nights a week.',
      biggestChallenge: 'Vending-machine snacks at 2 AM on shift',
    });
    await finishedView(client.id, coach.token, changed);
    const again = await call('POST', `${base}/generations`, admin.token);
    expect(again.status).toBe(202);
    const second = generateDitlResponseSchema.parse(await again.json()).generationId;
    expect([first, changed]).not.toContain(second);
    const after = await finishedView(client.id, coach.token, second);
    expect(challengeOf(after)).toMatchObject({ time: '2:00 AM', ...challengeEdit });
    expect(after.current?.generation.generationId).toBe(second);
    const page = await clientPage(client.token);
    expect(page.generationId).toBe(second);
    expect(page.html).toContain('One lap of the ward before any snack.');

    // Three generations today is this stack's budget: the fourth is refused with the wait.
    const refused = await call('POST', `${base}/generations`, coach.token);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await refused.json()) as { message: string }).message).toMatch(
      /^You have created 3 Day in the Life presentations in the last 24 hours, the most for one day\. You can create another in /,
    );

    const reset = await call('DELETE', `${base}/moments/challenge`, coach.token);
    expect(reset.status).toBe(200);
    const restored = challengeOf(coachDitlViewSchema.parse(await reset.json()));
    expect(restored).toMatchObject({ editedAt: null });
    expect(restored?.narrative).toBe(restored?.generated.narrative);
    expect((await clientPage(client.token)).html).not.toContain('One lap of the ward');

    const audited = await eventually(
      async () => {
        const { rows } = await db.query(`SELECT action, actor_id FROM auth.audit_events WHERE target_id = $1 AND outcome = 'succeeded' ORDER BY at`, [
          client.id,
        ]);
        return rows.length >= 3 ? rows : undefined;
      },
      5_000,
      'the audit events',
    );
    expect(audited).toEqual([
      { action: 'client.ditl-edit', actor_id: coach.id },
      { action: 'client.ditl-regenerate', actor_id: admin.id },
      { action: 'client.ditl-reset', actor_id: coach.id },
    ]);
  });

  it('e-mails the client again when a coach regenerates their Day in the Life, but not for a request the gateway never stated', async () => {
    const client = await createSignedInUser(db, 'regenerated-for@example.com');
    const coach = await createSignedInUser(db, 'coach-who-regenerates@example.com', 'coach');
    const regenerate = async () =>
      generateDitlResponseSchema.parse(await (await call('POST', `/api/coach/clients/${client.id}/ditl/generations`, coach.token)).json()).generationId;
    const readyMails = () => stack.smtp.messages.filter((mail) => mail.to.includes('regenerated-for@example.com'));

    const asked = await requestGeneration(stack.baseUrl, client.token, nurseAnswers);
    await finishedView(client.id, coach.token, asked);
    await finishedView(client.id, coach.token, await regenerate());
    await untilIdle(stack);
    expect(readyMails().map((mail) => mail.text.split('\n')[0])).toEqual(
      Array(2).fill(`Hi ${nurseAnswers.firstName}, your personalised "Day in the Life" is ready.`),
    );

    // As a request stored before the gateway signed them: its regeneration finishes, with nothing the notifier would send.
    await db.query(`UPDATE ditl.generations SET requested = NULL WHERE user_id = $1`, [client.id]);
    await finishedView(client.id, coach.token, await regenerate());
    await untilIdle(stack);
    expect(readyMails()).toHaveLength(2);
  });

  it("states the evolution length the client's coach set, keeps it on the page after the coach changes it, and a regenerate states the new one", async () => {
    const coach = await createSignedInUser(db, `coach-${randomUUID()}@example.com`, 'coach');
    const email = `sixty-${randomUUID()}@example.com`;
    expect((await call('POST', '/api/coach/leads', coach.token, { email, customEvolutionDays: 60 })).status).toBe(201);
    const [user] = (await db.query(`SELECT id FROM auth.users WHERE email = $1`, [email])).rows as { id: string }[];
    const client = await signedInAs(user?.id ?? '', email);

    const onboarded = await call('POST', '/api/onboarding', client.token, nurseAnswers);
    expect(onboarded.status).toBe(200);
    expect(finishOnboardingResponseSchema.parse(await onboarded.json()).onboarding.goalQuestions.timeline).toBe('60 days');
    const [stored] = (await db.query(`SELECT data FROM progress.onboarding_data WHERE user_id = $1`, [client.id])).rows as { data: unknown }[];
    expect(onboardingDataSchema.parse(stored?.data).goalQuestions.timeline).toBe('60 days');

    // The client's request carries no length: the gateway reads it from the client's progress.
    await finishedView(client.id, coach.token, await requestGeneration(stack.baseUrl, client.token, nurseAnswers));
    expect(await lengthStated(client.token)).toBe('60');

    expect((await call('PATCH', `/api/coach/clients/${client.id}`, coach.token, { customEvolutionDays: 45 })).status).toBe(200);
    expect(await lengthStated(client.token)).toBe('60');

    const regenerated = await call('POST', `/api/coach/clients/${client.id}/ditl/generations`, coach.token);
    expect(regenerated.status).toBe(202);
    await finishedView(client.id, coach.token, generateDitlResponseSchema.parse(await regenerated.json()).generationId);
    expect(await lengthStated(client.token)).toBe('45');
  });

  it('states 90 days for a client without a custom length, and takes no length from the client', async () => {
    const client = await createSignedInUser(db, `default-${randomUUID()}@example.com`);
    const coach = await createSignedInUser(db, `coach-${randomUUID()}@example.com`, 'coach');
    expect((await call('POST', '/api/onboarding', client.token, nurseAnswers)).status).toBe(200);
    expect((await call('POST', '/api/ditl/generations', client.token, { onboardingData: nurseAnswers, evolutionDays: 7 })).status).toBe(400);
    expect((await call('POST', '/api/ditl/generations', client.token, { onboardingData: { ...nurseAnswers, evolutionDays: 7 } })).status).toBe(400);
    await finishedView(client.id, coach.token, await requestGeneration(stack.baseUrl, client.token, nurseAnswers));
    expect(await lengthStated(client.token)).toBe('90');
  });
});
