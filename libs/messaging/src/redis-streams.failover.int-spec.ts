import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import Redis from 'ioredis';
import { killAndWait } from '@spark/testing';
import { deleteKeysUnder, eventually, quietLogger, redisUrl, uniquePrefix } from './__fixtures__/test-support';
import { RedisStreamsClient } from './redis-streams.client';
import { requestStreamKey } from './stream-keys';
import { decodeEntry } from './wire-format';

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

/** The values of the requests a consumer has read and not yet answered (answer and ack are one transaction). */
async function valuesHeldBy(consumer: string): Promise<number[]> {
  const redis = new Redis(redisUrl);
  const stream = requestStreamKey(prefix, 'echo');
  try {
    const pending = (await redis.xpending(stream, 'echo', '-', '+', 1_000, consumer)) as [string, ...unknown[]][];
    const reads = pending.reduce((pipeline, [entryId]) => pipeline.xrange(stream, entryId, entryId), redis.pipeline());
    const entries = ((await reads.exec()) ?? []).map(([, found]) => (found as [string, string[]][])[0]);
    return entries.map(([, fields]) => (JSON.parse(decodeEntry(fields)?.data ?? 'null') as { value: number }).value);
  } finally {
    redis.disconnect();
  }
}

beforeAll(async () => {
  client = new RedisStreamsClient({ app: 'test', redisUrl, prefix, logger: quietLogger });
  await client.connect();
});

afterAll(async () => {
  await killAndWait(replicas);
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
  await killAndWait([doomed]);
  const orphaned = await valuesHeldBy('doomed');
  const answers = await Promise.all(requests);

  expect(answers).toEqual(Array.from({ length: 500 }, (_, value) => ({ value, replica: expect.any(String) })));
  expect(answeredBy).toContain('doomed');
  // The killed replica held requests it never answered: only the survivor's reclaim can have answered them.
  expect(orphaned.length).toBeGreaterThan(0);
  expect(orphaned.map((value) => answers[value])).toEqual(orphaned.map((value) => ({ value, replica: 'survivor' })));
}, 30_000);
