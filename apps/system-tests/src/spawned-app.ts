import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { eventually, freePort } from '@spark/testing';

const entryOf = (app: string) => join(__dirname, `../../${app}.ts`);

const stderrTails = new WeakMap<ChildProcess, string>();

/** A replica as operators run it: its own OS process, started from its entry file (e.g. `leads-service/src/main`). */
export function spawnApp(app: string, env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(process.execPath, ['-r', '@swc-node/register', entryOf(app)], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr?.setEncoding('utf8').on('data', (text: string) => stderrTails.set(child, ((stderrTails.get(child) ?? '') + text).slice(-2000)));
  return child;
}

/** The end of what a replica wrote to stderr: why it did not start, or where a drain that outlasted its budget waited. */
export const stderrOf = (child: ChildProcess): string => stderrTails.get(child)?.trim() ?? '';

/** A spawned replica, once it answers ready on its own health port. */
export async function startReplica(app: string, env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const healthPort = await freePort();
  const child = spawnApp(app, { ...env, HEALTH_PORT: String(healthPort) });
  await eventually(async () => (await fetch(`http://127.0.0.1:${healthPort}/health/ready`).catch(() => undefined))?.ok, 60_000, `${app} to be ready`);
  return child;
}

export async function exitOf(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const [code] = (await once(child, 'exit')) as [number | null];
  return code;
}
