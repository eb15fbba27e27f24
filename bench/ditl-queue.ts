import { developmentSigningKeys } from '@spark/config';
// `node dist/bench/ditl-queue.js` (after `npm run build:node`): DITL queue throughput. 100 generations
// go through the real path (row + outbox → BullMQ → worker → S3 → completed) with a simulated model
// call of 2 s, first on one worker process at DITL_CONCURRENCY=10, then on two. Targets (issue 6):
// one worker ≤ 22 s; two workers ≥ 1.8× its throughput. Uses database spark_bench_ditl and Redis DB 4.
import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { DEFAULT_EVOLUTION_DAYS, onboardingAnswersSchema } from '@spark/contracts';
import { JobQueues, OutboxRelay } from '@spark/jobs';
import { createLogger } from '@spark/logging';
import { signedDitlRequest } from '@spark/messaging';
import { openMigrated } from '@spark/persistence';
import { startTestS3 } from '@spark/testing';
import { Redis } from 'ioredis';
import { GenerationsRepository } from '../apps/ditl-service/src/tooling';
import { ditlMigrations } from '../apps/ditl-service/src/migrations';
import { firstMessage, recreateDatabase } from './support';
import { recordFigure } from './summary';

const jobs = Number(process.env.BENCH_JOBS ?? 100);
const concurrency = process.env.BENCH_CONCURRENCY ?? '10';
const redisUrl = `${(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379').replace(/\/\d*$/, '')}/4`;
const answers = onboardingAnswersSchema.parse({
  firstName: 'Bench',
  transformationGoal: 'Move every day',
  age: 40,
  activityLevel: 'moderately_active',
  typicalDay: 'Office, gym, family dinner.',
  biggestChallenge: 'Evenings',
});

async function startReplica(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = fork(join(__dirname, 'ditl-worker-replica.js'), { env, stdio: 'inherit' });
  await firstMessage(child, 'worker replica');
  return child;
}

async function main() {
  const databaseUrl = await recreateDatabase('spark_bench_ditl');
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  await redis.flushdb();
  const s3 = await startTestS3();
  const logger = createLogger('bench', 'silent');
  const dataSource = await openMigrated({ url: databaseUrl, schema: 'ditl', migrations: ditlMigrations, applicationName: 'bench' });
  const queues = new JobQueues(redis, 'bench', developmentSigningKeys());
  const relay = new OutboxRelay(dataSource, 'ditl', queues, logger, { pollMs: 100 });
  const generations = new GenerationsRepository(dataSource);
  const env = {
    ...process.env,
    ...s3.env,
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    BUS_PREFIX: 'bench',
    LOG_LEVEL: 'silent',
    DITL_CONCURRENCY: concurrency,
    OUTBOX_POLL_MS: '200',
  };

  const run = async (replicas: number) => {
    await dataSource.query('TRUNCATE ditl.generations, ditl.outbox');
    const workers = await Promise.all(Array.from({ length: replicas }, () => startReplica(env)));
    const started = performance.now();
    await Promise.all(
      Array.from({ length: jobs }, () => {
        const id = randomUUID();
        return generations.insertWithJob(
          {
            id,
            userId: randomUUID(),
            email: 'bench@example.com',
            leadId: null,
            answers,
            requested: signedDitlRequest(developmentSigningKeys(), { email: 'bench@example.com', firstName: answers.firstName }),
            evolutionDays: DEFAULT_EVOLUTION_DAYS,
            requestId: null,
          },
          { queue: 'ditl', name: 'generate-ditl', data: { generationId: id } },
        );
      }),
    );
    relay.kick();
    for (;;) {
      const [{ done }] = (await dataSource.query(`SELECT count(*)::int AS done FROM ditl.generations WHERE status = 'completed'`)) as { done: number }[];
      if (done === jobs) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const seconds = (performance.now() - started) / 1000;
    for (const worker of workers) worker.kill('SIGTERM');
    await Promise.all(workers.map((worker) => new Promise((resolve) => worker.once('exit', resolve))));
    return seconds;
  };

  relay.start();
  const one = await run(1);
  const two = await run(2);
  recordFigure({ measure: `DITL queue, ${jobs} jobs on 1 worker`, figure: `${one.toFixed(2)} s`, target: '≤ 22 s', met: one <= 22 });
  recordFigure({ measure: 'DITL queue, 2 workers against 1', figure: `${(one / two).toFixed(2)}×`, target: '≥ 1.8×', met: one / two >= 1.8 });
  process.stdout.write(
    [
      `DITL queue: ${jobs} jobs, simulated model call ${process.env.BENCH_MODEL_MS ?? 2000} ms, DITL_CONCURRENCY=${concurrency}`,
      `  1 worker process : ${one.toFixed(2)} s  (${(jobs / one).toFixed(2)} jobs/s)  target ≤ 22 s: ${one <= 22 ? 'met' : 'MISSED'}`,
      `  2 worker processes: ${two.toFixed(2)} s  (${(jobs / two).toFixed(2)} jobs/s)  speed-up ${(one / two).toFixed(2)}×  target ≥ 1.8×: ${one / two >= 1.8 ? 'met' : 'MISSED'}`,
      '',
    ].join('\n'),
  );
  await relay.stop();
  await queues.close();
  await dataSource.destroy();
  await redis.flushdb();
  redis.disconnect();
  await s3.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
