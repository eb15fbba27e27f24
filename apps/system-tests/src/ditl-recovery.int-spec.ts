import { ditlStatusResponseSchema, generateDitlResponseSchema } from '@spark/contracts';
import { eventually } from '@spark/testing';
import { createSignedInUser } from './ditl-auth';
import { mayaAnswers } from './ditl-recorded-model';
import { type DitlWorkerStack, startDitlWorkerStack } from './ditl-worker-stack';
import { untilIdle } from './until-idle';

describe('a DITL worker killed in the middle of a job', () => {
  let ditl: DitlWorkerStack;

  beforeAll(async () => {
    ditl = await startDitlWorkerStack({ redisDb: 10 });
  });
  afterAll(async () => {
    await ditl.stop();
  });

  it('is picked up by another worker and completed exactly once', async () => {
    const { stack, model, db, startWorker } = ditl;
    model.mode = 'hang';
    const first = startWorker();
    const client = await createSignedInUser(db, 'recover@example.com');
    const response = await fetch(`${stack.baseUrl}/api/ditl/generations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${client.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        // The answers the recorded model plan was written for, so its plan passes the plan checks at once.
        onboardingData: mayaAnswers,
      }),
    });
    const { generationId } = generateDitlResponseSchema.parse(await response.json());

    // The first worker has the job and is waiting for the model: kill it without any chance to clean up.
    await eventually(() => model.calls.length === 1, 30_000, 'the first worker to call the model');
    first.kill('SIGKILL');
    model.mode = 'valid';
    startWorker();

    const status = await eventually(
      async () => {
        const answer = await fetch(`${stack.baseUrl}/api/ditl/generations/${generationId}`, { headers: { authorization: `Bearer ${client.token}` } });
        const parsed = ditlStatusResponseSchema.parse(await answer.json());
        return parsed.status === 'completed' ? parsed : undefined;
      },
      // Says nothing about speed: a new worker process starting on a machine busy with other test files can take
      // much of this before it sees the stalled job.
      45_000,
      'the recovered generation',
    );
    expect(status.progress).toBe(100);
    const { rows } = await db.query(`SELECT attempts FROM ditl.generations WHERE id = $1`, [generationId]);
    expect(rows[0].attempts).toBe(2);
    expect(model.calls).toHaveLength(2);
    await eventually(() => stack.smtp.messages.some((mail) => mail.to.includes('recover@example.com')), 10_000, 'the ready e-mail');
    await untilIdle(stack);
    expect(stack.smtp.messages.filter((mail) => mail.to.includes('recover@example.com'))).toHaveLength(1);
    const outbox = await db.query(`SELECT count(*)::int AS mails FROM ditl.outbox WHERE job_name = 'ditl-ready'`);
    expect(outbox.rows[0].mails).toBe(1);
  }, 120_000);

  it('is not planned a second time when Redis loses its job while its worker waits for the model', async () => {
    const { stack, model, db, startWorker } = ditl;
    model.mode = 'valid';
    model.delayMs = 6_000;
    const callsBefore = model.calls.length;
    startWorker();
    startWorker();
    const client = await createSignedInUser(db, 'redis-lost-while-planning@example.com');
    const response = await fetch(`${stack.baseUrl}/api/ditl/generations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${client.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ onboardingData: mayaAnswers }),
    });
    const { generationId } = generateDitlResponseSchema.parse(await response.json());

    // A worker is waiting for the model when Redis restarts empty: the outbox adds the job again, and a free worker takes it.
    await eventually(() => model.calls.length === callsBefore + 1, 30_000, 'the first call to the model');
    await stack.redis.flushdb();
    const statusOf = async () => (await db.query<{ status: string }>(`SELECT status FROM ditl.generations WHERE id = $1`, [generationId])).rows[0]?.status;
    await eventually(async () => (await statusOf()) === 'completed', 45_000, 'the generation completed');
    await untilIdle(stack);
    model.delayMs = 0;

    expect(model.calls.length - callsBefore).toBe(1);
    const { rows } = await db.query(`SELECT attempts FROM ditl.generations WHERE id = $1`, [generationId]);
    expect(rows[0].attempts).toBe(1);
    expect(stack.smtp.messages.filter((mail) => mail.to.includes('redis-lost-while-planning@example.com'))).toHaveLength(1);
  }, 120_000);
});
