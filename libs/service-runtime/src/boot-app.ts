import { assertSigningKeysFor, loadConfig, serviceEnv, type ServiceConfig } from '@spark/config';
import type { JobApp } from '@spark/contracts';
import { JobQueues, OutboxRelay } from '@spark/jobs';
import { createLogger, type Logger } from '@spark/logging';
import { RedisStreamsClient, ServiceBus } from '@spark/messaging';
import { afterCommit, createServiceDataSource, prepareSchema, type ServiceDataSource, type ServiceDataSourceOptions } from '@spark/persistence';
import { createMetrics, dependencyReadiness, outboxLagMetric, startHealthServer, type Stop, stopSteps } from '@spark/runtime';
import { Redis } from 'ioredis';
import type { Registry } from 'prom-client';

/** What every process of Spark starts from: its config, logs, database schema, Redis, job queues and metrics. */
export interface AppInfrastructure {
  config: ServiceConfig;
  logger: Logger;
  dataSource: ServiceDataSource;
  redis: Redis;
  jobs: JobQueues;
  /** The schema's outbox relay (started once `start` resolves, for an app whose schema has an outbox). */
  outbox: OutboxRelay;
  /** The process's one client of the other services' bus patterns, signed as its schema; it connects on first use. */
  bus: ServiceBus;
  registry: Registry;
}

export interface AppBoot {
  /** The process's name in logs and metrics: `leads-service`, `notifier`, `ditl-worker`. */
  app: string;
  /** Its schema, which names the app whose jobs it signs and runs (`jobProducers`, `queueConsumers`). */
  schema: JobApp;
  migrations: ServiceDataSourceOptions['migrations'];
  env?: NodeJS.ProcessEnv;
  /** Adds this process's own outbox writes in the same tick to one Redis write (producers only, not BullMQ workers). */
  autoPipelining?: boolean;
  /** Whether the schema has an outbox to relay (every schema but the notifier's). */
  relaysOutbox?: boolean;
}

/**
 * The one way a Spark process starts (services, the notifier, the DITL worker): the internal port first (so a
 * probe sees "not ready" rather than nothing while migrations run elsewhere), the schema, the job queues and the
 * outbox relay; then `start` builds the app on them and answers how to stop it. The returned stop function stops
 * the app first, then what it stood on. See docs/operations.md, "Readiness, liveness and migrations".
 */
export async function bootApp(boot: AppBoot, start: (infrastructure: AppInfrastructure) => Promise<Stop>): Promise<Stop> {
  const config = loadConfig(serviceEnv, boot.env);
  assertSigningKeysFor(boot.schema, config.SIGNING_KEYS);
  const logger = createLogger(boot.app, config.LOG_LEVEL, { format: config.LOG_FORMAT });
  const dataSource = createServiceDataSource({
    url: config.DATABASE_URL,
    schema: boot.schema,
    migrations: boot.migrations,
    applicationName: boot.app,
  });
  const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: null, enableAutoPipelining: boot.autoPipelining ?? false });
  redis.on('error', (error: Error) => logger.warn({ err: error }, 'redis connection error'));
  const metrics = createMetrics(boot.app);
  let started = false;
  const health = await startHealthServer(
    config.HEALTH_PORT,
    dependencyReadiness({ postgres: () => dataSource.query('SELECT 1'), redis: () => redis.ping() }, () => started),
    { '/metrics': metrics.page },
  );
  await prepareSchema(dataSource, boot.schema, {
    url: config.DATABASE_URL,
    runMigrations: config.RUN_MIGRATIONS,
    onWaiting: (reason) => logger.info({ reason: String(reason) }, 'waiting for the schema to be migrated (RUN_MIGRATIONS=false)'),
  });
  const jobs = new JobQueues(redis, config.BUS_PREFIX, config.SIGNING_KEYS);
  const outbox = new OutboxRelay(dataSource, boot.schema, jobs, logger, {
    pollMs: config.OUTBOX_POLL_MS,
    reconcileMs: config.OUTBOX_RECONCILE_MS,
    afterCommit,
  });
  const relaysOutbox = boot.relaysOutbox ?? true;
  if (relaysOutbox) outboxLagMetric(metrics.registry, dataSource, boot.schema);
  const busClient = new RedisStreamsClient({
    redisUrl: config.REDIS_URL,
    prefix: config.BUS_PREFIX,
    app: boot.schema,
    timeoutMs: config.BUS_TIMEOUT_MS,
    logger,
    signingKeys: config.SIGNING_KEYS,
  });
  const bus = new ServiceBus(busClient);
  const stopApp = await start({ config, logger, dataSource, redis, jobs, outbox, bus, registry: metrics.registry });
  if (relaysOutbox) outbox.start();
  started = true;
  logger.info('ready');
  return stopSteps({
    'the health port': () => {
      logger.info('stopping');
      health?.close();
    },
    'the app': stopApp,
    'the bus client': () => busClient.close(),
    'the outbox relay': () => outbox.stop(),
    'the job queues': () => jobs.close(),
    'the database': () => dataSource.destroy(),
    Redis: () => redis.disconnect(),
  });
}
