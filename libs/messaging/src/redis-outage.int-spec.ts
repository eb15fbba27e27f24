import { eventually, outlastDroppedConnections, type PrivateRedis, startPrivateRedis } from '@spark/testing';
import type { Redis } from 'ioredis';
import { quietLogger, uniquePrefix } from './__fixtures__/test-support';
import { testContract } from './__fixtures__/test-contract';
import { RedisStreamsClient } from './redis-streams.client';
import { RedisStreamsServer } from './redis-streams.server';

/** Once every connection has noticed that Redis is gone, as it has by the time an operator stops a process. */
const noticedTheOutage = (connections: Redis[]) =>
  eventually(() => connections.every((connection) => connection.status !== 'ready'), 5_000, 'the connections to notice the outage');

/**
 * Both ends of the bus stopped while their Redis is down, on a Redis of the test's own that it kills: a process told
 * to stop then must not wait for Redis to come back (it would only be killed at its drain deadline).
 */
describe('a bus whose Redis is down', () => {
  let redis: PrivateRedis;

  beforeEach(async () => {
    redis = await startPrivateRedis();
  });
  afterEach(async () => {
    await redis.stop();
    await outlastDroppedConnections();
  });

  it('lets its client close while a request waits for an answer, which gets SERVICE_UNAVAILABLE', async () => {
    const client = new RedisStreamsClient({ app: 'test', redisUrl: redis.url, prefix: uniquePrefix(), timeoutMs: 10_000, logger: quietLogger });
    await client.connect();
    const waiting = client.request('outage.ping', {});
    await redis.stop();
    await noticedTheOutage(client.unwrap());

    await client.close();
    await expect(waiting).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  }, 8_000);

  it('lets its server close while it reads requests', async () => {
    const server = new RedisStreamsServer({ redisUrl: redis.url, prefix: uniquePrefix(), service: 'outage', logger: quietLogger, contract: testContract });
    await new Promise<void>((resolve, reject) => server.listen((error) => (error ? reject(error as Error) : resolve())));
    await redis.stop();
    await noticedTheOutage(server.unwrap());

    await server.close();
  }, 8_000);
});
