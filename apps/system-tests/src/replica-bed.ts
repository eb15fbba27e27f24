import { developmentSigningKeys } from '@spark/config';
import type { ChildProcess } from 'node:child_process';
import { createLogger } from '@spark/logging';
import { RedisStreamsClient } from '@spark/messaging';
import { createTestDatabase, killAndWait, testRedisUrl, uniquePrefix } from '@spark/testing';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import { startReplica } from './spawned-app';

/**
 * What the tests that start, stop and kill service replicas share: a database and a bus prefix of their own, a
 * connection to each, and a bus client that sends requests to the replicas as the gateway does.
 */
export interface ReplicaBed {
  /** Every replica's environment: DATABASE_URL, REDIS_URL, BUS_PREFIX and what the test added. */
  readonly env: NodeJS.ProcessEnv;
  readonly databaseUrl: string;
  readonly db: Client;
  readonly redis: Redis;
  readonly client: RedisStreamsClient;
  /** A replica of `app` (e.g. `leads-service/src/main`) in its own OS process, once it is ready. */
  replica(app: string, extraEnv?: NodeJS.ProcessEnv): Promise<ChildProcess>;
  /** SIGKILLs every replica started so far and waits until each has exited. */
  killReplicas(): Promise<void>;
  close(): Promise<void>;
}

export async function openReplicaBed(name: string, options: { requestTimeoutMs: number; env?: NodeJS.ProcessEnv }): Promise<ReplicaBed> {
  const database = await createTestDatabase();
  const redisUrl = await testRedisUrl();
  const env: NodeJS.ProcessEnv = { ...options.env, BUS_PREFIX: uniquePrefix(name), DATABASE_URL: database.url, REDIS_URL: redisUrl };
  const db = new Client({ connectionString: database.url });
  await db.connect();
  const redis = new Redis(redisUrl);
  const client = new RedisStreamsClient({
    app: 'gateway',
    signingKeys: developmentSigningKeys(),
    redisUrl,
    prefix: env.BUS_PREFIX,
    timeoutMs: options.requestTimeoutMs,
    logger: createLogger(`${name}-test`, 'silent'),
  });
  await client.connect();
  const children: ChildProcess[] = [];
  const killReplicas = () => killAndWait(children.splice(0));
  return {
    env,
    databaseUrl: database.url,
    db,
    redis,
    client,
    async replica(app, extraEnv = {}) {
      const child = await startReplica(app, { ...env, ...extraEnv });
      children.push(child);
      return child;
    },
    killReplicas,
    async close() {
      await killReplicas();
      redis.disconnect();
      await client.close();
      await db.end();
      await database.drop();
    },
  };
}
