import { createLogger } from '@spark/logging';
import { eventually, type PrivateRedis, startPrivateRedis } from '@spark/testing';
import { Redis } from 'ioredis';
import { RedisStreamsClient } from './redis-streams.client';
import { requestStreamKey } from './stream-keys';

const quietLogger = createLogger('redis-bounds-test', 'silent');

describe('a bus whose Redis has limits', () => {
  let server: PrivateRedis;
  let redis: Redis;

  beforeAll(async () => {
    server = await startPrivateRedis({ maxmemory: '8mb', 'maxmemory-policy': 'noeviction' });
    redis = new Redis(server.url);
  });
  afterAll(async () => {
    redis.disconnect();
    await server.stop();
  });

  it('trims entries nobody consumed once they are older than any caller waits', async () => {
    const client = new RedisStreamsClient({ app: 'test', redisUrl: server.url, prefix: 'aged', timeoutMs: 100, logger: quietLogger, maxEntryAgeMs: 500 });
    await client.connect();
    const stream = requestStreamKey('aged', 'absent');
    try {
      // The service is down: its stream only grows, and each request answers 503 at its deadline.
      await Promise.allSettled(Array.from({ length: 50 }, () => client.request('absent.ping', {})));
      expect(await redis.xlen(stream)).toBe(50);
      // Later requests trim what has aged past the limit (MINID ~ works on whole nodes, so wait until it has).
      await eventually(
        async () => {
          await client.request('absent.ping', {}).catch(() => undefined);
          return (await redis.xlen(stream)) < 10;
        },
        10_000,
        'the aged entries to be trimmed',
      );
    } finally {
      await client.close();
    }
  });

  it('answers 503 at once while Redis is full, loses nothing it accepted, and works again once memory is freed', async () => {
    const client = new RedisStreamsClient({ app: 'test', redisUrl: server.url, prefix: 'full', timeoutMs: 5_000, logger: quietLogger });
    await client.connect();
    const filler = new Redis(server.url);
    try {
      // Redis refuses a write once what it holds is over `maxmemory`: large values first, then small ones up to it.
      let index = 0;
      for (const size of [256 * 1024, 1024, 64]) {
        const chunk = 'x'.repeat(size);
        while ((await filler.set(`filler:${index++}`, chunk).catch(() => undefined)) === 'OK');
      }
      const startedAt = Date.now();
      await expect(client.request('full.ping', {})).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: 'The message bus is unavailable' });
      // A full Redis refuses the write: the caller hears it at once rather than at its deadline.
      expect(Date.now() - startedAt).toBeLessThan(2_000);
      expect(await redis.xlen(requestStreamKey('full', 'full'))).toBe(0);

      const keys = await filler.keys('filler:*');
      await filler.del(...keys);
      const accepted = client.request('full.ping', {}, 200).catch((error: { code?: string }) => error.code);
      // Nobody serves `full`: the request is written and times out, which shows Redis took it.
      expect(await accepted).toBe('SERVICE_UNAVAILABLE');
      expect(await redis.xlen(requestStreamKey('full', 'full'))).toBe(1);
    } finally {
      filler.disconnect();
      await client.close();
    }
  });
});
