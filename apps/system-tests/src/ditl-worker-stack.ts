import { type ChildProcess, spawn, type StdioOptions } from 'node:child_process';
import { join } from 'node:path';
import { killAndWait, linesOf } from '@spark/testing';
import { Client } from 'pg';
import { TEST_JWT_SECRET } from './ditl-auth';
import { type FakeModel, startFakeModel } from './ditl-fake-model';
import { type InProcessStack, startInProcessStack } from './in-process-stack';

const workerEntry = join(__dirname, '../../ditl-service/src/worker-main.ts');

/** The product with a fake model and no DITL worker inside the service: tests start worker replicas themselves. */
export interface DitlWorkerStack {
  stack: InProcessStack;
  model: FakeModel;
  db: Client;
  /** A worker replica as operators run it: its own OS process, started from its entry file. */
  startWorker(): ChildProcess;
  /** A worker replica that logs at info, with the lines it writes. */
  startLoggingWorker(): { worker: ChildProcess; logLines: string[] };
  stop(): Promise<void>;
}

export async function startDitlWorkerStack(options: { redisDb?: number } = {}): Promise<DitlWorkerStack> {
  const model = await startFakeModel();
  const stack = await startInProcessStack({
    redisDb: options.redisDb,
    env: { JWT_SECRET: TEST_JWT_SECRET, OPENAI_BASE_URL: model.baseUrl, OPENAI_TIMEOUT_MS: '30000', DITL_WORKER_ENABLED: 'false', DITL_LOCK_MS: '1500' },
  });
  const db = new Client({ connectionString: stack.databaseUrl });
  await db.connect();
  const workers: ChildProcess[] = [];
  const spawnWorker = (env: NodeJS.ProcessEnv, stdio: StdioOptions) => {
    const worker = spawn(process.execPath, ['-r', '@swc-node/register', workerEntry], { env: { ...process.env, ...stack.env, ...env }, stdio });
    workers.push(worker);
    return worker;
  };
  return {
    stack,
    model,
    db,
    startWorker: () => spawnWorker({}, 'ignore'),
    startLoggingWorker() {
      const worker = spawnWorker({ LOG_LEVEL: 'info' }, ['ignore', 'pipe', 'ignore']);
      return { worker, logLines: linesOf(worker.stdout) };
    },
    async stop() {
      await killAndWait(workers);
      await db.end();
      await stack.stop();
      await model.close();
    },
  };
}
