import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import Redis from 'ioredis';
import { deleteKeysUnder, eventually, quietLogger, redisUrl, uniquePrefix } from './__fixtures__/test-support';
import { RedisStreamsClient } from './redis-streams.client';
import { requestStreamKey } from './stream-keys';

const prefix = uniquePrefix();
const replicas: ChildProcess[] = [];
let client: RedisStreamsClient;

/** Starts a replica of the echo fixture service in its own process and waits until it listens. */
async function startReplica(name: string): Promise<ChildProcess> {
  const fixture = join(__dirname, '__fixtures__', 'echo-service.ts');
  // Low concurrency keeps the load running long enough to kill a replica in the middle of it.
  const child = spawn(process.execPath, ['-r', '@swc-node/register', fixture, redisUrl, prefix, name, '8'], {
    cwd: join(__dirname, '../../..'),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  replicas.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve());
    child.once('exit', (code) => reject(new Error(`replica ${name} exited with ${code} before it was ready`)));
  });
  return child;
}

async function pendingEntriesOf(consumer: string): Promise<number> {
  const redis = new Redis(redisUrl);
  try {
    const summary = await redis.xpending(requestStreamKey(prefix, 'echo'), 'echo');
    const perConsumer = Array.isArray(summary) && Array.isArray(summary[3]) ? (summary[3] as [string, string][]) : [];
    return Number(perConsumer.find(([name]) => name === consumer)?.[1] ?? 0);
  } finally {
    redis.disconnect();
  }
}

beforeAll(async () => {
  client = new RedisStreamsClient({ redisUrl, prefix, logger: quietLogger });
  await client.connect();
});

afterAll(async () => {
  for (const child of replicas) child.kill('SIGKILL');
  await client.close();
  await deleteKeysUnder(prefix);
});

it('answers every request when a replica is killed in the middle of the load', async () => {
  const [doomed] = await Promise.all([startReplica('doomed'), startReplica('survivor')]);
  const answeredBy: string[] = [];

  const requests = Array.from({ length: 500 }, (_, value) =>
    client.request('echo.slow', { value }, 10_000).then((answer) => {
      answeredBy.push((answer as { replica: string }).replica);
      return answer;
    }),
  );
  await eventually(() => answeredBy.length >= 100);
  doomed.kill('SIGKILL');
  const answeredBeforeKill = answeredBy.length;
  const orphaned = await pendingEntriesOf('doomed');
  const answers = await Promise.all(requests);

  expect(answers).toEqual(Array.from({ length: 500 }, (_, value) => ({ value, replica: expect.any(String) })));
  expect(answeredBy.slice(0, answeredBeforeKill)).toContain('doomed');
  // The killed replica held requests it never answered: only reclaim can have answered them.
  expect(orphaned).toBeGreaterThan(0);
  // At most replies already on their way when it died can still carry its name.
  expect(answeredBy.slice(answeredBeforeKill).filter((replica) => replica === 'doomed').length).toBeLessThanOrEqual(8);
}, 30_000);
