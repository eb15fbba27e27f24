import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './wait';

const run = promisify(execFile);

/** A PostgreSQL server of the test's own, which it may stop and start without disturbing anyone else's. */
export interface PrivatePostgres {
  url: string;
  /** Stops the server the way a crash or a failover does: connections drop, nothing is flushed politely. */
  stop(): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

async function postgresBin(): Promise<string> {
  const versions = (await readdir('/usr/lib/postgresql')).sort((a, b) => Number(b) - Number(a));
  if (!versions[0]) throw new Error('No PostgreSQL server binaries under /usr/lib/postgresql');
  return join('/usr/lib/postgresql', versions[0], 'bin');
}

/** initdb and pg_ctl refuse to run as root: as root they run as the postgres user. */
const asServerUser = (command: string, args: string[]) =>
  process.getuid?.() === 0 ? run('runuser', ['-u', 'postgres', '--', command, ...args]) : run(command, args);

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = await postgresBin();
  const dataDir = await mkdtemp(join(tmpdir(), 'spark-pg-'));
  if (process.getuid?.() === 0) await run('chown', ['postgres', dataDir]);
  const port = await freePort();
  await asServerUser(join(bin, 'initdb'), ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--no-sync']);
  const pgCtl = (...args: string[]) => asServerUser(join(bin, 'pg_ctl'), ['-D', dataDir, '-w', ...args]);
  const start = async () => {
    await pgCtl('-o', `-p ${port} -k ${dataDir} -c listen_addresses=127.0.0.1 -c fsync=off`, '-l', join(dataDir, 'server.log'), 'start');
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/spark`,
    stop: async () => void (await pgCtl('-m', 'immediate', 'stop')),
    start,
    async destroy() {
      await pgCtl('-m', 'immediate', 'stop').catch(() => undefined);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
