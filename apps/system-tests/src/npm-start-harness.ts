// Runs `npm start` (or scripts/start.mjs) as a developer or a supervisor would, and finds what it started.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export const root = resolve(__dirname, '..', '..', '..');
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Every process whose environment carries `marker`: what a test's stack started, at any depth. */
export function processesWithMarker(marker: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`).includes(marker);
      } catch {
        return false; // ended meanwhile, or not ours to read
      }
    })
    .map(Number);
}

export async function waitFor(label: string, condition: () => boolean | Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${label}: not within ${timeoutMs / 1000} s`);
    await sleep(250);
  }
}

/** A stack of its own: the marker (NAME=value) every process of it carries, and the environment `npm start` gets. */
export interface TestStack {
  marker: string;
  environment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
}

/**
 * A stack labelled `label` on `ports` (each variable named as the stack reads it), with a bus prefix and a process
 * marker of its own. Its environment is the shell's without the pointers at outside services, which would bypass
 * the local mailbox and S3 under test, and with `env` on top.
 */
export function testStack(label: string, ports: Record<string, number>): TestStack {
  const markerName = `SPARK_${label.toUpperCase().replaceAll('-', '_')}_TEST`;
  const markerValue = randomBytes(6).toString('hex');
  const busPrefix = `${label}-${randomBytes(4).toString('hex')}`;
  return {
    marker: `${markerName}=${markerValue}`,
    environment(env) {
      const { SMTP_URL: _smtp, S3_ENDPOINT: _s3, PUBLIC_URL: _public, ...shell } = process.env;
      const portVariables = Object.fromEntries(Object.entries(ports).map(([name, port]) => [name, String(port)]));
      return { ...shell, ...portVariables, BUS_PREFIX: busPrefix, LOG_FORMAT: 'json', ...env, [markerName]: markerValue };
    },
  };
}

export interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

export function start(command: string, args: string[], env: NodeJS.ProcessEnv): Started {
  const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return { child, output: () => output, exited };
}
