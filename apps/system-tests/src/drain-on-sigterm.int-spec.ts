import { createLeadResponseSchema, ditlStatusResponseSchema } from '@spark/contracts';
import { requestStreamKey } from '@spark/messaging';
import { eventually } from '@spark/testing';
import { Client } from 'pg';
import { createSignedInUser, requestGeneration } from './ditl-auth';
import { mayaAnswers } from './ditl-recorded-model';
import { type DitlWorkerStack, startDitlWorkerStack } from './ditl-worker-stack';
import { type ReplicaBed, openReplicaBed } from './replica-bed';
import { exitOf } from './spawned-app';
import { leadCommand } from './lead-command';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
describe('SIGTERM to a service replica in the middle of a 4 s request', () => {
  let bed: ReplicaBed;
  const start = () => bed.replica('leads-service/src/main');

  beforeAll(async () => {
    bed = await openReplicaBed('drain', { requestTimeoutMs: 60_000 });
  });
  afterAll(() => bed?.close());

  it('finishes and answers it, is not replaced by another replica meanwhile, and exits 0', async () => {
    // Two live replicas reading the stream: the one that is not stopped would take over a stale entry.
    const replicas = await Promise.all([start(), start()]);
    const stream = requestStreamKey(bed.env.BUS_PREFIX ?? '', 'leads');
    // New leads wait on this lock for as long as the test holds it: the 4 s handler.
    const lock = new Client({ connectionString: bed.databaseUrl });
    await lock.connect();
    await lock.query('BEGIN');
    await lock.query('LOCK TABLE leads.leads IN EXCLUSIVE MODE');
    const answer = bed.client.request('leads.create', leadCommand('drained@example.com'));
    await eventually(
      async () => {
        const waiting = await bed.db.query(
          `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND application_name = 'leads-service'`,
        );
        return waiting.rowCount === 1;
      },
      30_000,
      'the handler to wait on the lock',
    );
    // The entry's consumer is named after its process (host-pid-random): stop that replica.
    const [[, consumer]] = (await bed.redis.xpending(stream, 'leads', '-', '+', 1)) as [string, string][];
    const draining = replicas.find((replica) => consumer?.includes(`-${replica.pid}-`));
    if (!draining) throw new Error(`no replica owns consumer ${consumer}`);
    const other = replicas.find((replica) => replica !== draining);

    draining.kill('SIGTERM');
    // Longer than the transport's 3 s reclaim idle time: a draining replica that stopped refreshing loses the entry.
    await sleep(4500);
    await lock.query('COMMIT');
    await lock.end();

    expect(createLeadResponseSchema.parse(await answer).lead.email).toBe('drained@example.com');
    expect(await exitOf(draining)).toBe(0);
    const leads = await bed.db.query(`SELECT count(*)::int AS leads FROM leads.leads WHERE email = 'drained@example.com'`);
    const jobs = await bed.db.query(`SELECT count(*)::int AS jobs FROM leads.outbox WHERE payload->>'email' = 'drained@example.com'`);
    expect({ leads: leads.rows[0].leads, jobs: jobs.rows[0].jobs }).toEqual({ leads: 1, jobs: 2 });
    expect(other?.exitCode).toBeNull();
  }, 120_000);
});

describe('SIGTERM to a DITL worker in the middle of a generation', () => {
  let ditl: DitlWorkerStack;

  beforeAll(async () => {
    ditl = await startDitlWorkerStack();
  });
  afterAll(async () => {
    await ditl.stop();
  });

  it('finishes the generation it runs, runs it once, and exits 0', async () => {
    const { stack, model, db, startWorker } = ditl;
    model.delayMs = 4000;
    const draining = startWorker();
    const user = await createSignedInUser(db, 'drained-ditl@example.com');
    const generationId = await requestGeneration(stack.baseUrl, user.token, mayaAnswers);
    await eventually(() => model.calls.length === 1, 60_000, 'the worker to call the model');
    // Another live worker, which would take the job over if the draining one let its lock lapse.
    startWorker();
    draining.kill('SIGTERM');

    expect(await exitOf(draining)).toBe(0);
    const status = await eventually(
      async () => {
        const answer = await fetch(`${stack.baseUrl}/api/ditl/generations/${generationId}`, { headers: { authorization: `Bearer ${user.token}` } });
        const parsed = ditlStatusResponseSchema.parse(await answer.json());
        return parsed.status === 'completed' ? parsed : undefined;
      },
      30_000,
      'the generation to complete',
    );
    expect(status.progress).toBe(100);
    const { rows } = await db.query(`SELECT attempts FROM ditl.generations WHERE id = $1`, [generationId]);
    expect(rows[0].attempts).toBe(1);
    expect(model.calls).toHaveLength(1);
  }, 120_000);
});
