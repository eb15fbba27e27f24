// Starts the whole product from dist/ for a measurement, on ports and a database of its own, so it
// neither needs nor disturbs `npm start` (8080) or the browser tests' stack (18080).
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface BenchStack {
  baseUrl: string;
  stop(): Promise<void>;
}

const GATEWAY_PORT = 28080; // services' health ports follow: 28081–28087

/** Runs scripts/lib/stack.mjs (ESM) in a child process and resolves once the gateway is ready. */
export function startBenchStack(root: string): Promise<BenchStack> {
  const stackModule = pathToFileURL(join(root, 'scripts', 'lib', 'stack.mjs')).href;
  const launcher = `
    import { startStack } from ${JSON.stringify(stackModule)};
    const stack = await startStack({
      root: ${JSON.stringify(root)}, env: process.env, isolated: true,
      ports: { gateway: ${GATEWAY_PORT}, smtp: 2026, mailboxWeb: 2081, s3: 24569 },
      databaseName: 'spark_bench_lighthouse', recreateDatabase: true, busPrefix: 'bench-lighthouse',
      output: { directory: ${JSON.stringify(join(root, '.data', 'bench', 'logs'))} },
    });
    process.stdout.write('ready\\n');
    process.on('SIGTERM', () => stack.stop().then(() => process.exit(0)));`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', launcher], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`product stack exited with code ${code}; logs in .data/bench/logs`)));
    child.stdout?.on('data', (data: Buffer) => {
      if (data.toString().includes('ready')) resolve({ baseUrl: `http://127.0.0.1:${GATEWAY_PORT}`, stop: () => stopChild(child) });
    });
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
