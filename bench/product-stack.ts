// Starts the whole product from dist/ for a measurement, on ports, a database and a bus prefix of its own, so it
// neither needs nor disturbs `npm start` (8080), the browser tests' stack (18080) or another benchmark's stack.
// Benchmark ports sit below Linux's ephemeral range (32768 and up), where any outgoing connection may hold one.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { killAndWait } from '@spark/testing';

export interface BenchStack {
  baseUrl: string;
  /** The product's processes (gateway, services, notifier), for CPU accounting; each serves /metrics on its health port. */
  apps: { name: string; pid: number; healthPort: number }[];
  stop(): Promise<void>;
}

export interface BenchStackOptions {
  /** The gateway's port; the services' health ports follow it (+1 … +7). */
  gatewayPort: number;
  smtpPort: number;
  mailboxPort: number;
  s3Port: number;
  /** Dropped and created afresh on every start. */
  databaseName: string;
  /** Namespaces the stack's streams and queues on the shared Redis. */
  busPrefix: string;
  /** Extra variables for the product's apps only (not maildev/s3rver), e.g. JWT_SECRET. */
  appEnv?: Record<string, string>;
  /** Extra node flags for every app, e.g. ['--cpu-prof', '--cpu-prof-dir=…'] (not allowed in NODE_OPTIONS). */
  nodeArgs?: string[];
}

/** What bench/lighthouse.ts and bench/lighthouse-pwa.ts run against. */
export const LIGHTHOUSE_STACK: BenchStackOptions = {
  gatewayPort: 28080,
  smtpPort: 2026,
  mailboxPort: 2081,
  s3Port: 24569,
  databaseName: 'spark_bench_lighthouse',
  busPrefix: 'bench-lighthouse',
};

/**
 * Runs scripts/lib/stack.mjs (ESM) in a child process and resolves once the gateway is ready. The apps' logs go
 * to .data/bench/logs/<databaseName>/.
 */
export function startBenchStack(root: string, options: BenchStackOptions): Promise<BenchStack> {
  const stackModule = pathToFileURL(join(root, 'scripts', 'lib', 'stack.mjs')).href;
  const logs = join(root, '.data', 'bench', 'logs', options.databaseName);
  const ports = { gateway: options.gatewayPort, smtp: options.smtpPort, mailboxWeb: options.mailboxPort, s3: options.s3Port };
  const launcher = `
    import { startStack } from ${JSON.stringify(stackModule)};
    const stack = await startStack({
      root: ${JSON.stringify(root)}, env: { ...process.env, ...${JSON.stringify(options.appEnv ?? {})} }, isolated: true,
      ports: ${JSON.stringify(ports)},
      databaseName: ${JSON.stringify(options.databaseName)}, recreateDatabase: true, busPrefix: ${JSON.stringify(options.busPrefix)},
      output: { directory: ${JSON.stringify(logs)} }, nodeArgs: ${JSON.stringify(options.nodeArgs ?? [])},
    });
    const apps = stack.processes.filter((handle) => handle.kind === 'app').map(({ name, pid, healthPort }) => ({ name, pid, healthPort }));
    process.stdout.write('ready ' + JSON.stringify(apps) + '\\n');
    process.on('SIGTERM', () => stack.stop().then(() => process.exit(0)));`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', launcher], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`product stack exited with code ${code}; logs in ${logs}`)));
    let output = '';
    child.stdout?.on('data', (data: Buffer) => {
      output += data.toString();
      const ready = /^ready (.*)\n/m.exec(output);
      if (ready?.[1])
        resolve({
          baseUrl: `http://127.0.0.1:${options.gatewayPort}`,
          apps: JSON.parse(ready[1]) as BenchStack['apps'],
          stop: () => killAndWait([child], 'SIGTERM'),
        });
    });
  });
}
