import { startGateway } from '../../gateway/src/main';
import { leadsService } from '../../leads-service/src/service';
import { startNotifier } from '../../notifier/src/main';
import { startService } from '@spark/runtime';
import { createTestDatabase, type SmtpSink, startSmtpSink, testRedisUrl, uniquePrefix } from '@spark/testing';
import { Redis } from 'ioredis';

/**
 * The real gateway, leads-service and notifier started in this process, on a fresh database, a
 * dedicated Redis database index and a loopback SMTP server. Nothing is mocked.
 */
export interface InProcessStack {
  baseUrl: string;
  env: NodeJS.ProcessEnv;
  smtp: SmtpSink;
  redis: Redis;
  databaseUrl: string;
  startNotifier(): Promise<void>;
  stopNotifier(): Promise<void>;
  stop(): Promise<void>;
}

export async function startInProcessStack(options: { redisDb: number; withNotifier?: boolean; env?: NodeJS.ProcessEnv }): Promise<InProcessStack> {
  const database = await createTestDatabase();
  const smtp = await startSmtpSink();
  const redisUrl = new URL(await testRedisUrl());
  redisUrl.pathname = `/${options.redisDb}`;
  const env: NodeJS.ProcessEnv = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: database.url,
    REDIS_URL: redisUrl.toString(),
    BUS_PREFIX: uniquePrefix('sys'),
    SMTP_URL: smtp.url,
    LEAD_ALERT_EMAIL: 'alerts@spark.test',
    PORT: '0',
    HOST: '127.0.0.1',
    OUTBOX_POLL_MS: '200',
    OUTBOX_VERIFY_AFTER_MS: '500',
    ...options.env,
  };
  const stopLeads = await startService({ ...leadsService, env }, false);
  const gateway = await startGateway(env);
  let stopNotifier: (() => Promise<void>) | undefined;
  const stack: InProcessStack = {
    baseUrl: gateway.url.replace('[::1]', '127.0.0.1'),
    env,
    smtp,
    redis: new Redis(redisUrl.toString()),
    databaseUrl: database.url,
    async startNotifier() {
      stopNotifier ??= await startNotifier(env);
    },
    async stopNotifier() {
      await stopNotifier?.();
      stopNotifier = undefined;
    },
    async stop() {
      await stack.stopNotifier();
      await gateway.stop();
      await stopLeads();
      await stack.redis.flushdb();
      stack.redis.disconnect();
      await smtp.close();
      await database.drop();
    },
  };
  if (options.withNotifier !== false) await stack.startNotifier();
  return stack;
}
