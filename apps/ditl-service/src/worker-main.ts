import 'reflect-metadata';
import { type DitlConfig, ditlEnv, loadConfig } from '@spark/config';
import { JobQueues, OutboxRelay } from '@spark/jobs';
import { createLogger } from '@spark/logging';
import { createServiceDataSource, prepareSchema } from '@spark/persistence';
import { QUEUES } from '@spark/contracts';
import { createMetrics, dependencyReadiness, DRAIN_SECONDS, onShutdown, outboxLagMetric, queueDepthMetric, runMain, startHealthServer } from '@spark/runtime';
import { Redis } from 'ioredis';
import { ditlMigrations } from './migrations';
import type { DitlPlanner } from './planner/planner';
import { startDitlWorker } from './worker/ditl-worker';

/**
 * A DITL worker replica on its own (no bus handlers): run as many as the queue needs. It relays
 * its own outbox rows (the ready e-mails), so it does not depend on a service replica being up.
 */
export async function startDitlWorkerProcess(env: NodeJS.ProcessEnv = process.env, planner?: DitlPlanner) {
  const config: DitlConfig = loadConfig(ditlEnv, env);
  const logger = createLogger('ditl-worker', config.LOG_LEVEL, { format: config.LOG_FORMAT });
  const dataSource = createServiceDataSource({
    url: config.DATABASE_URL,
    schema: 'ditl',
    entities: [],
    migrations: ditlMigrations,
    applicationName: 'ditl-worker',
  });
  const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: null });
  const metrics = createMetrics('ditl-worker');
  let started = false;
  const health = await startHealthServer(
    config.HEALTH_PORT,
    dependencyReadiness({ postgres: () => dataSource.query('SELECT 1'), redis: () => redis.ping() }, () => started),
    { '/metrics': metrics.page },
  );
  await prepareSchema(dataSource, 'ditl', {
    url: config.DATABASE_URL,
    runMigrations: config.RUN_MIGRATIONS,
    onWaiting: (reason) => logger.info({ reason: String(reason) }, 'waiting for the schema to be migrated (RUN_MIGRATIONS=false)'),
  });
  const jobs = new JobQueues(redis, config.BUS_PREFIX);
  const outbox = new OutboxRelay(dataSource, 'ditl', jobs, logger, { pollMs: config.OUTBOX_POLL_MS, reconcileMs: config.OUTBOX_RECONCILE_MS });
  outbox.start();
  const worker = startDitlWorker({ config, dataSource, logger, kickOutbox: () => outbox.kick(), planner });
  queueDepthMetric(metrics.registry, [jobs.queue(QUEUES.ditl)]);
  outboxLagMetric(metrics.registry, dataSource, 'ditl');
  started = true;
  logger.info({ concurrency: config.DITL_CONCURRENCY }, 'ready');
  return async () => {
    health?.close();
    await worker.close();
    await outbox.stop();
    await jobs.close();
    await dataSource.destroy();
    redis.disconnect();
  };
}

if (require.main === module) runMain('ditl-worker', async () => onShutdown(await startDitlWorkerProcess(), DRAIN_SECONDS.ditlWorker));
