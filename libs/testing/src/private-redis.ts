import { type ChildProcess, spawn } from 'node:child_process';
import { Redis } from 'ioredis';
import { killAndWait } from './processes';
import { eventually, freePort } from './wait';

/** A Redis server of the test's own, with settings the shared one must not get (a tiny `maxmemory`, say). */
export interface PrivateRedis {
  url: string;
  stop(): Promise<void>;
}

export async function startPrivateRedis(settings: Record<string, string> = {}): Promise<PrivateRedis> {
  const port = await freePort();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  for (const [name, value] of Object.entries(settings)) args.push(`--${name}`, value);
  const server: ChildProcess = spawn('redis-server', args, { stdio: 'ignore' });
  const url = `redis://127.0.0.1:${port}`;
  await eventually(
    async () => {
      const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      try {
        await probe.connect();
        return (await probe.ping()) === 'PONG';
      } catch {
        return false;
      } finally {
        probe.disconnect();
      }
    },
    10_000,
    'the private Redis to answer',
  );
  return {
    url,
    stop: () => killAndWait([server]),
  };
}
