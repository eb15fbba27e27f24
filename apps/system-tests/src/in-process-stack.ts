import { startGateway } from '../../gateway/src/main';
import { authService } from '../../auth-service/src/service';
import { contentService } from '../../content-service/src/service';
import { ditlService } from '../../ditl-service/src/service';
import { investorService } from '../../investor-service/src/service';
import { leadsService } from '../../leads-service/src/service';
import { startNotifier } from '../../notifier/src/main';
import { progressService } from '../../progress-service/src/service';
import { type ServiceDefinition, startService } from '@spark/service-runtime';
import { createTestDatabase, type SmtpSink, startSmtpSink, startTestS3, type TestS3, testRedisUrl, uniquePrefix } from '@spark/testing';
import type { ServiceName } from '@spark/contracts';
import { Redis } from 'ioredis';

export const allServices: ServiceDefinition[] = [authService, leadsService, progressService, investorService, ditlService, contentService];

/**
 * The real gateway, services and notifier started in this process, on a fresh database, a
 * dedicated Redis database index, a loopback SMTP server and a real S3-compatible server.
 * Nothing is mocked.
 */
export interface InProcessStack {
  baseUrl: string;
  env: NodeJS.ProcessEnv;
  smtp: SmtpSink;
  s3: TestS3;
  redis: Redis;
  databaseUrl: string;
  startNotifier(): Promise<void>;
  stopNotifier(): Promise<void>;
  /** Stops one of the stack's services (by its definition's name), as a crashed or drained replica would be gone. */
  stopService(name: ServiceName): Promise<void>;
  /** Starts a stopped service again. */
  startService(name: ServiceName): Promise<void>;
  stop(): Promise<void>;
}

export interface InProcessStackOptions {
  /**
   * A Redis database index of its own, only for a test that FLUSHDBs; without one the stack shares
   * database 0 and removes just the keys under its own bus prefix when it stops.
   */
  redisDb?: number;
  services?: ServiceDefinition[];
  withNotifier?: boolean;
  env?: NodeJS.ProcessEnv;
  /** A database elsewhere (a private server a test stops), instead of a fresh one on the shared server. */
  databaseUrl?: string;
  /** Each app's own connection to the database (`databaseUrl` is then the owner's, which the test has migrated). */
  databaseUrlOf?(app: string): string;
  /** A Redis of the test's own: `adminUrl` for the stack's own client, `urlOf(app)` for each app (one ACL user each). */
  redis?: { adminUrl: string; urlOf(app: string): string };
  /** Settings of one app's own, over `env` (each app's own `SIGNING_KEYS`, say). */
  envOf?(app: string): NodeJS.ProcessEnv;
}

async function deleteKeysUnder(redis: Redis, pattern: string): Promise<void> {
  for await (const keys of redis.scanStream({ match: pattern, count: 500 }) as AsyncIterable<string[]>) {
    if (keys.length > 0) await redis.unlink(...keys);
  }
}

export async function startInProcessStack(options: InProcessStackOptions): Promise<InProcessStack> {
  const database = options.databaseUrl ? undefined : await createTestDatabase();
  const smtp = await startSmtpSink();
  const s3 = await startTestS3();
  const redisUrl = new URL(options.redis?.adminUrl ?? (await testRedisUrl()));
  redisUrl.pathname = `/${options.redisDb ?? 0}`;
  const env: NodeJS.ProcessEnv = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: options.databaseUrl ?? database?.url,
    REDIS_URL: redisUrl.toString(),
    BUS_PREFIX: uniquePrefix('sys'),
    SMTP_URL: smtp.url,
    LEAD_ALERT_EMAIL: 'alerts@spark.test',
    PORT: '0',
    HOST: '127.0.0.1',
    OUTBOX_POLL_MS: '200',
    ...s3.env,
    ...options.env,
  };
  const envOf = (app: string): NodeJS.ProcessEnv => ({
    ...env,
    ...(options.redis ? { REDIS_URL: options.redis.urlOf(app) } : {}),
    ...(options.databaseUrlOf ? { DATABASE_URL: options.databaseUrlOf(app), RUN_MIGRATIONS: 'false' } : {}),
    ...options.envOf?.(app),
  });
  const services = options.services ?? allServices;
  const running = new Map<ServiceName, () => Promise<void>>();
  const start = async (service: ServiceDefinition) => running.set(service.name, await startService({ ...service, env: envOf(service.name) }, false));
  await Promise.all(services.map(start));
  const gateway = await startGateway(envOf('gateway'));
  let stopNotifier: (() => Promise<void>) | undefined;
  const stack: InProcessStack = {
    baseUrl: gateway.url.replace('[::1]', '127.0.0.1'),
    env,
    smtp,
    s3,
    redis: new Redis(redisUrl.toString()),
    databaseUrl: options.databaseUrl ?? database?.url ?? '',
    async startNotifier() {
      stopNotifier ??= await startNotifier(envOf('notifier'));
    },
    async stopNotifier() {
      await stopNotifier?.();
      stopNotifier = undefined;
    },
    async stopService(name) {
      const stop = running.get(name);
      running.delete(name);
      await stop?.();
    },
    async startService(name) {
      const service = services.find((candidate) => candidate.name === name);
      if (!service) throw new Error(`the stack has no service ${name}`);
      if (!running.has(name)) await start(service);
    },
    async stop() {
      await stack.stopNotifier();
      await gateway.stop();
      await Promise.all([...running.keys()].map((name) => stack.stopService(name)));
      if (options.redisDb === undefined) await deleteKeysUnder(stack.redis, `${env.BUS_PREFIX}*`);
      else await stack.redis.flushdb();
      stack.redis.disconnect();
      await smtp.close();
      await s3.close();
      await database?.drop();
    },
  };
  if (options.withNotifier !== false) await stack.startNotifier();
  return stack;
}
