import { type ChildProcess, spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { killAndWait } from './processes';
import { eventually, freePort } from './wait';

/** A Redis server of the test's own, with settings the shared one must not get (a tiny `maxmemory`), or to stop. */
export interface PrivateRedis {
  url: string;
  /** Kills the server, the way a crash does; its data is gone. */
  stop(): Promise<void>;
  /** Starts it again, empty, on the same port (if it is not running). */
  start(): Promise<void>;
}

/** ioredis's `disconnectTimeout` default. */
const IOREDIS_DISCONNECT_TIMEOUT_MS = 2_000;

/**
 * Waits out the timer ioredis still arms to destroy the socket of a connection disconnected while its Redis was down,
 * so a test that stopped its Redis under a client leaves nothing running.
 */
export const outlastDroppedConnections = () => sleep(IOREDIS_DISCONNECT_TIMEOUT_MS);

export async function startPrivateRedis(settings: Record<string, string> = {}): Promise<PrivateRedis> {
  const port = await freePort();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  for (const [name, value] of Object.entries(settings)) args.push(`--${name}`, value);
  const url = `redis://127.0.0.1:${port}`;
  let server: ChildProcess | undefined;
  const start = async () => {
    if (server) return;
    server = spawn('redis-server', args, { stdio: 'ignore' });
    await eventually(() => answers(url), 10_000, 'the private Redis to answer');
  };
  await start();
  return {
    url,
    start,
    stop: async () => {
      if (server) await killAndWait([server]);
      server = undefined;
    },
  };
}

async function answers(url: string): Promise<boolean> {
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  // Refused until the server listens: the rejected connect says so, the error event need not.
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}
