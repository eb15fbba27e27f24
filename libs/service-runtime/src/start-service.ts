import { type DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { loadConfig, serviceEnv, type ServiceConfig } from '@spark/config';
import type { ErasedPart, ServiceName } from '@spark/contracts';
import { JobQueues, OutboxRelay } from '@spark/jobs';
import { createLogger, type Logger, PinoNestLogger } from '@spark/logging';
import { RedisStreamsServer } from '@spark/messaging';
import { afterCommit, createServiceDataSource, prepareSchema, type ServiceDataSource, type ServiceDataSourceOptions } from '@spark/persistence';
import { Redis } from 'ioredis';
import { busServerMetrics, createMetrics, dependencyReadiness, DRAIN_SECONDS, onShutdown, outboxLagMetric, startHealthServer } from '@spark/runtime';
import type { Registry } from 'prom-client';
import { type AccountEraser, startAccountErasure } from './account-erasure';
import { startCommandLedger } from './command-ledger';
import { NotDoneFilter } from './not-done.filter';

/** What a service's module is built from: everything that touches the outside world. */
export interface ServiceInfrastructure {
  config: ServiceConfig;
  logger: Logger;
  dataSource: ServiceDataSource;
  jobs: JobQueues;
  outbox: OutboxRelay;
}

export interface ServiceDefinition {
  name: ServiceName;
  entities: ServiceDataSourceOptions['entities'];
  migrations: ServiceDataSourceOptions['migrations'];
  module: (infrastructure: ServiceInfrastructure) => DynamicModule;
  env?: NodeJS.ProcessEnv;
  /** Its SIGTERM budget when longer than an app's (`DRAIN_SECONDS`). */
  drainSeconds?: number;
  /** Metrics of its own beyond the bus and outbox ones every service has (a queue it works, say). */
  metrics?: (registry: Registry, jobs: JobQueues) => void;
  /** The part of a deleted account this service erases, and how (docs/data-rights.md, "Account deletion"). */
  accountErasure?: (infrastructure: ServiceInfrastructure) => { part: ErasedPart; eraser: AccountEraser };
}

/**
 * Boots one replica of a service: config, migrations of its own schema, the outbox relay, and a
 * Nest microservice on the Redis Streams transport. Returns a stop function (also wired to signals
 * when `handleSignals` is true).
 */
export async function startService(definition: ServiceDefinition, handleSignals = true): Promise<() => Promise<void>> {
  const config = loadConfig(serviceEnv, definition.env);
  const drainSeconds = definition.drainSeconds ?? DRAIN_SECONDS.app;
  const app = `${definition.name}-service`;
  const logger = createLogger(app, config.LOG_LEVEL, { format: config.LOG_FORMAT });
  const dataSource = createServiceDataSource({
    url: config.DATABASE_URL,
    schema: definition.name,
    entities: definition.entities,
    migrations: definition.migrations,
    applicationName: app,
  });
  // Outbox adds issued in the same tick share one write (BullMQ producers only; workers block elsewhere).
  const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: null, enableAutoPipelining: true });
  const metrics = createMetrics(app);
  let started = false;
  // Up before the schema is ready, so a probe sees "not ready" rather than nothing while migrations run elsewhere.
  const health = await startHealthServer(
    config.HEALTH_PORT,
    dependencyReadiness({ postgres: () => dataSource.query('SELECT 1'), redis: () => redis.ping() }, () => started),
    { '/metrics': metrics.page },
  );
  await prepareSchema(dataSource, definition.name, {
    url: config.DATABASE_URL,
    runMigrations: config.RUN_MIGRATIONS,
    onWaiting: (reason) => logger.info({ reason: String(reason) }, 'waiting for the schema to be migrated (RUN_MIGRATIONS=false)'),
  });
  const jobs = new JobQueues(redis, config.BUS_PREFIX);
  const outbox = new OutboxRelay(dataSource, definition.name, jobs, logger, {
    pollMs: config.OUTBOX_POLL_MS,
    reconcileMs: config.OUTBOX_RECONCILE_MS,
    afterCommit,
  });
  outboxLagMetric(metrics.registry, dataSource, definition.name);
  definition.metrics?.(metrics.registry, jobs);
  const ledger = startCommandLedger(dataSource, definition.name, logger);
  const microservice = await NestFactory.createMicroservice(definition.module({ config, logger, dataSource, jobs, outbox }), {
    strategy: new RedisStreamsServer({
      redisUrl: config.REDIS_URL,
      prefix: config.BUS_PREFIX,
      service: definition.name,
      logger,
      // Handlers finish within the budget, leaving time to close connections after them.
      drainTimeoutMs: (drainSeconds - 5) * 1000,
      observer: busServerMetrics(metrics.registry),
      ledger,
    }),
    logger: new PinoNestLogger(logger),
  });
  microservice.useGlobalFilters(new NotDoneFilter(definition.name));
  await microservice.listen();
  outbox.start();
  const erasure = definition.accountErasure?.({ config, logger, dataSource, jobs, outbox });
  const erasureWorker =
    erasure &&
    startAccountErasure({
      ...erasure,
      dataSource,
      outboxSchema: definition.name,
      redisUrl: config.REDIS_URL,
      busPrefix: config.BUS_PREFIX,
      busTimeoutMs: config.BUS_TIMEOUT_MS,
      logger,
    });
  started = true;
  logger.info('ready');

  const stop = async () => {
    logger.info('stopping');
    health?.close();
    await microservice.close();
    await erasureWorker?.close();
    ledger.stop();
    await outbox.stop();
    await jobs.close();
    await dataSource.destroy();
    redis.disconnect();
  };
  if (handleSignals) onShutdown(stop, drainSeconds);
  return stop;
}
