// Shared by the benchmark scripts: a fresh database of their own, a readiness wait, s3rver in a process of
// its own and a process's resident memory.
import { type ChildProcess, fork } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { deployedNode } from '@spark/testing';
import { Client } from 'pg';

const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Drops and creates database `name` on the benchmark's PostgreSQL; returns its URL. */
export async function recreateDatabase(name: string): Promise<string> {
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Polls `url` until it answers 2xx (30 s at most). */
export async function waitUntilReady(url: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (
      await fetch(url).then(
        (response) => response.ok,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} never became ready`);
}

// s3rver writes each object and its metadata as files. On a disk that costs it more CPU than the product spends on
// the same request, and varies from run to run; S3 itself runs on machines of its own. Memory is the fairer stand-in.
const S3RVER_DATA_DIRECTORY = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();

// s3rver's file calls run on libuv's thread pool. With the default four threads, each call may wake a different
// sleeping thread, and on a small shared machine those wake-ups cost the stand-in more than the calls themselves;
// one thread works through the queued calls in turn.
const S3RVER_THREAD_POOL_SIZE = '1';

/** The first message a forked child sends (it is ready), or its exit named as `what`'s failure to start. */
export function firstMessage<T>(child: ChildProcess, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    child.once('message', (message: T) => resolve(message));
    child.once('exit', (code) => reject(new Error(`${what} exited with ${code}`)));
  });
}

/**
 * s3rver in a child process (bench/s3rver-child.ts), so it does not share the load generator's event loop, with its
 * objects in memory where the machine has a tmpfs.
 */
export async function startS3(): Promise<{ child: ChildProcess; env: Record<string, string> }> {
  const child = fork(join(__dirname, 's3rver-child.js'), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, TMPDIR: S3RVER_DATA_DIRECTORY, UV_THREADPOOL_SIZE: S3RVER_THREAD_POOL_SIZE },
  });
  const { env } = await firstMessage<{ env: Record<string, string> }>(child, 's3rver');
  return { child, env };
}

/** The environment of a benchmark's own apps: quiet logs, its database, Redis and bus prefix, the gateway on 127.0.0.1:`port`. */
export function appEnvironment(
  stack: { databaseUrl: string; redisUrl: string; busPrefix: string; port: number },
  extra: NodeJS.ProcessEnv = {},
): NodeJS.ProcessEnv & { BUS_PREFIX: string } {
  const { databaseUrl, redisUrl, busPrefix, port } = stack;
  return {
    ...process.env,
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    BUS_PREFIX: busPrefix,
    PORT: String(port),
    HOST: '127.0.0.1',
    ...extra,
  };
}

/**
 * A built app (`dist/apps/<app>`) in a child process as deployed: the node flags of its manifest and the image's
 * allocator setting, so its memory figures are the deployed process's. `extraArgs` are node flags of the benchmark's.
 */
export function forkDeployedApp(app: string, env: NodeJS.ProcessEnv, extraArgs: string[] = []): ChildProcess {
  const deployed = deployedNode(app);
  return fork(join(repositoryRoot, `dist/apps/${app}/src/main.js`), [], {
    env: { ...env, ...deployed.env },
    execArgv: [...deployed.execArgv, ...extraArgs],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

/** Resident memory of process `pid` in MiB, as the kernel counts it (what a container's limit applies to). */
export const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/** "load average 1.20, 0.80, 0.50": a figure's context, since other work on the machine moves it. */
export const loadAverage = () =>
  `load average ${loadavg()
    .map((value) => value.toFixed(2))
    .join(', ')}`;

/** The pages a visitor can open without an account: the page-weight and Lighthouse budgets apply to each. */
export const PUBLIC_PAGES = ['/', '/interest', '/products', '/me', '/evolutions', '/signin', '/donate', '/log'];

/** The repository's root, whether this runs from bench/ (swc-node) or from dist/bench/ (after a build). */
export const repositoryRoot = __dirname.split('/').includes('dist') ? join(__dirname, '..', '..') : join(__dirname, '..');

/** The value below which `p` per cent of `sorted` (ascending) lie. */
export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
