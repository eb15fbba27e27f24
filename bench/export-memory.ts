// A client's data export of about 500 MB built by the real worker (a forked progress-service), sparks of
// large files in s3rver, printing the worker's RSS and heap over time: they should stay flat while the
// archive grows. `BENCH_SPARKS` (default 100) files of `BENCH_FILE_MB` (default 5) MiB each.
import { fork } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { developmentSigningKeys, loadConfig, storageEnv } from '@spark/config';
import { createLogger } from '@spark/logging';
import { RedisStreamsClient, ServiceBus, signedExportGrant } from '@spark/messaging';
import { startService } from '@spark/service-runtime';
import { ObjectStorage } from '@spark/storage';
import { insertUser } from '@spark/testing';
import { Client } from 'pg';
import { authService } from '../apps/auth-service/src/service';
import { ditlService } from '../apps/ditl-service/src/service';
import { recreateDatabase, startS3 } from './support';

const sparks = Number(process.env.BENCH_SPARKS ?? 100);
const fileMb = Number(process.env.BENCH_FILE_MB ?? 5);
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

interface MemorySample {
  rss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

async function main() {
  const databaseUrl = await recreateDatabase('bench_export');
  const s3 = await startS3();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...s3.env,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATABASE_URL: databaseUrl,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    BUS_PREFIX: `bench-export-${randomBytes(3).toString('hex')}`,
    OUTBOX_POLL_MS: '200',
    HEALTH_PORT: '0',
  };
  const stopServices = await Promise.all([authService, ditlService].map((service) => startService({ ...service, env }, false)));
  const worker = fork(join(__dirname, 'export-worker-process.js'), [], { env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const samples: { at: number; memory: MemorySample }[] = [];
  let started = 0;
  await new Promise<void>((resolve, reject) => {
    worker.on('message', (message: { ready?: true } & MemorySample) => {
      if (message.ready) return resolve();
      if (started) samples.push({ at: Date.now() - started, memory: message });
    });
    worker.once('exit', (code) => reject(new Error(`the worker exited with ${code}`)));
  });

  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  const userId = await insertUser(db, { email: 'bench-export@spark.test', role: 'client' });
  await db.query(
    `INSERT INTO progress.user_progress (user_id, email, full_name, evolution_start_date, evolution_end_date) VALUES ($1, 'bench-export@spark.test', 'Bench Client', current_date, current_date + 90)`,
    [userId],
  );
  const storage = new ObjectStorage(loadConfig(storageEnv, s3.env));
  const file = randomBytes(fileMb * 1024 * 1024);
  for (let index = 0; index < sparks; index++) {
    const key = `${userId}/${Date.now()}-${index}.mov`;
    // Each file differs in its first bytes, so no two are alike, and random data does not compress.
    file.writeUInt32BE(index, 0);
    await storage.put({ key, body: file, contentType: 'video/quicktime' });
    await db.query(
      `INSERT INTO progress.sparks (user_id, client_spark_id, spark_type, file_key, file_type, note, file_bytes) VALUES ($1, $2, 'file', $3, 'video/quicktime', $4, $5)`,
      [userId, randomUUID(), key, `Spark ${index}`, file.length],
    );
  }
  console.log(`seeded ${sparks} sparks of ${fileMb} MiB (${mb(sparks * file.length)} MiB)`);

  const client = new RedisStreamsClient({
    redisUrl: env.REDIS_URL ?? '',
    prefix: env.BUS_PREFIX,
    app: 'gateway',
    signingKeys: developmentSigningKeys(),
    timeoutMs: 5000,
    logger: createLogger('bench', 'silent'),
  });
  const bus = new ServiceBus(client);
  started = Date.now();
  const grant = signedExportGrant(developmentSigningKeys(), { userId, email: 'bench-export@spark.test' });
  await bus.request('progress.request-export', { userId, email: 'bench-export@spark.test', requestedBy: userId, grant });
  for (;;) {
    const done = await db.query(`SELECT 1 FROM progress.outbox WHERE job_name = 'data-export-ready'`);
    if (done.rowCount) break;
    if (Date.now() - started > 20 * 60_000) throw new Error('the export did not finish within 20 minutes');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const seconds = (Date.now() - started) / 1000;

  console.log('\n| s | RSS MiB | heap used MiB | external MiB | array buffers MiB |\n|---|---|---|---|---|');
  const every = Math.max(1, Math.floor(samples.length / 20));
  samples
    .filter((_, index) => index % every === 0)
    .forEach(({ at, memory }) =>
      console.log(`| ${(at / 1000).toFixed(1)} | ${mb(memory.rss)} | ${mb(memory.heapUsed)} | ${mb(memory.external)} | ${mb(memory.arrayBuffers)} |`),
    );
  const peak = (pick: (memory: MemorySample) => number) => mb(Math.max(...samples.map(({ memory }) => pick(memory))));
  console.log(
    `\nexport of ${mb(sparks * file.length)} MiB in ${seconds.toFixed(1)} s; peak RSS ${peak((m) => m.rss)} MiB, peak heap used ${peak((m) => m.heapUsed)} MiB, first RSS ${mb(samples[0]?.memory.rss ?? 0)} MiB`,
  );

  await client.close();
  await db.end();
  await storage.close();
  worker.kill('SIGTERM');
  await Promise.all(stopServices.map((stop) => stop()));
  s3.child.kill('SIGTERM');
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
