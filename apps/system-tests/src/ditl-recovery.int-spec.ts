import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { ditlStatusResponseSchema, generateDitlResponseSchema } from '@spark/contracts';
import { eventually } from '@spark/testing';
import { Client } from 'pg';
import { createSignedInUser, TEST_JWT_SECRET } from './ditl-auth';
import { type FakeModel, startFakeModel } from './ditl-fake-model';
import { mayaAnswers } from './ditl-recorded-model';
import { type InProcessStack, startInProcessStack } from './in-process-stack';

const workerEntry = join(__dirname, '../../ditl-service/src/worker.ts');

describe('a DITL worker killed in the middle of a job', () => {
  let stack: InProcessStack;
  let model: FakeModel;
  let db: Client;
  const workers: ChildProcess[] = [];
  // A worker replica as operators run it: its own process, started from its entry file.
  const startWorker = () => {
    const worker = spawn(process.execPath, ['-r', '@swc-node/register', workerEntry], { env: { ...process.env, ...stack.env }, stdio: 'ignore' });
    workers.push(worker);
    return worker;
  };

  beforeAll(async () => {
    model = await startFakeModel();
    // No worker inside the service: the workers are separate replicas, as operators run them.
    stack = await startInProcessStack({
      redisDb: 10,
      env: { JWT_SECRET: TEST_JWT_SECRET, OPENAI_BASE_URL: model.baseUrl, OPENAI_TIMEOUT_MS: '30000', DITL_WORKER_ENABLED: 'false', DITL_LOCK_MS: '1500' },
    });
    db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    for (const worker of workers) worker.kill('SIGKILL');
    await db.end();
    await stack.stop();
    await model.close();
  });

  it('is picked up by another worker and completed exactly once', async () => {
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
      20_000,
      'the recovered generation',
    );
    expect(status.progress).toBe(100);
    const { rows } = await db.query(`SELECT attempts FROM ditl.generations WHERE id = $1`, [generationId]);
    expect(rows[0].attempts).toBe(2);
    expect(model.calls).toHaveLength(2);
    await eventually(() => stack.smtp.messages.some((mail) => mail.to.includes('recover@example.com')), 10_000, 'the ready e-mail');
    // Give a duplicate delivery every chance to show up before counting.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(stack.smtp.messages.filter((mail) => mail.to.includes('recover@example.com'))).toHaveLength(1);
    const outbox = await db.query(`SELECT count(*)::int AS mails FROM ditl.outbox WHERE job_name = 'ditl-ready'`);
    expect(outbox.rows[0].mails).toBe(1);
  });
});
