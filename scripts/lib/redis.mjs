// Redis for a local stack: the configured server, else the local one, else a private
// redis-server (no persistence) with its directory under .data/redis.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { portAnswers, waitForPort } from './network.mjs';
import { startProcess } from './processes.mjs';

/** Where Redis is: `configuredUrl`, else 127.0.0.1:`port`, else a private server started there. */
export async function ensureRedis({ configuredUrl, dataRoot, output, port = 6379 }) {
  const localUrl = `redis://127.0.0.1:${port}`;
  if (configuredUrl) return { url: configuredUrl, origin: 'configured' };
  if (await portAnswers(port)) return { url: localUrl, origin: 'local' };
  const directory = join(dataRoot, 'redis');
  mkdirSync(directory, { recursive: true });
  const server = startProcess(
    'redis',
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', directory],
    { output },
  );
  server.kind = 'infrastructure';
  await waitForPort('Redis', port, { process: server, timeoutMs: 20_000 });
  return { url: localUrl, origin: `private (${directory})`, process: server };
}
