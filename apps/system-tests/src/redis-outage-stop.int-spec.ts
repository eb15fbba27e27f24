import { createTestDatabase, outlastDroppedConnections, type PrivateRedis, startPrivateRedis, type TestDatabase, uniquePrefix } from '@spark/testing';
import type { ChildProcess } from 'node:child_process';
import { exitOf, startReplica, stderrOf } from './spawned-app';

const PROCESSES = [
  'auth-service/src/main',
  'content-service/src/main',
  'ditl-service/src/main',
  'ditl-service/src/worker-main',
  'investor-service/src/main',
  'leads-service/src/main',
  'notifier/src/main',
  'progress-service/src/main',
];

/**
 * Every process but the gateway (redis-outage.int-spec.ts), each in its own OS process on a Redis of the test's own,
 * told to stop while that Redis is down: the bus, the BullMQ workers and the outbox relay give up their waits on it
 * instead of holding the process until its drain deadline kills it.
 */
describe('a service told to stop while Redis is down', () => {
  let redis: PrivateRedis;
  let database: TestDatabase;
  const children = new Map<string, ChildProcess>();

  beforeAll(async () => {
    redis = await startPrivateRedis();
    database = await createTestDatabase();
    const env = { REDIS_URL: redis.url, DATABASE_URL: database.url, BUS_PREFIX: uniquePrefix('stop-without-redis') };
    // One after another: the schemas' first migrations would otherwise race for the database.
    for (const app of PROCESSES) children.set(app, await startReplica(app, env));
  }, 180_000);
  afterAll(async () => {
    for (const child of children.values()) child.kill('SIGKILL');
    await redis.stop();
    await database?.drop();
    await outlastDroppedConnections();
  });

  it('exits 0 within seconds, its drain not waiting for Redis to come back', async () => {
    await redis.stop();
    const stopped = Date.now();
    for (const child of children.values()) child.kill('SIGTERM');
    const exits = await Promise.all(
      [...children].map(async ([app, child]) => ({
        app,
        code: await exitOf(child),
        seconds: Math.round((Date.now() - stopped) / 1000),
        said: stderrOf(child),
      })),
    );
    // The bus server's last read gets its blocking time and one second more: a few seconds, against a drain budget of 25.
    expect(exits.filter(({ code, seconds }) => code !== 0 || seconds > 10)).toEqual([]);
  }, 60_000);
});
