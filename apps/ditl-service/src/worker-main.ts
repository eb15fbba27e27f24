import 'reflect-metadata';
import { type DitlConfig, ditlEnv, loadConfig } from '@spark/config';
import { QUEUES } from '@spark/contracts';
import { DRAIN_SECONDS, onShutdown, queueDepthMetric, runMain } from '@spark/runtime';
import { bootApp } from '@spark/service-runtime';
import { ditlMigrations } from './migrations';
import type { DitlPlanner } from './planner/planner';
import { startDitlWorker } from './worker/ditl-worker';

/**
 * A DITL worker replica on its own (no bus handlers): run as many as the queue needs. It relays
 * its own outbox rows (the ready e-mails), so it does not depend on a service replica being up.
 */
export function startDitlWorkerProcess(env: NodeJS.ProcessEnv = process.env, planner?: DitlPlanner) {
  const config: DitlConfig = loadConfig(ditlEnv, env);
  return bootApp({ app: 'ditl-worker', schema: 'ditl', migrations: ditlMigrations, env }, async ({ logger, dataSource, jobs, outbox, registry }) => {
    const worker = startDitlWorker({ config, dataSource, logger, kickOutbox: () => outbox.kick(), planner });
    queueDepthMetric(registry, [jobs.queue(QUEUES.ditl)]);
    logger.info({ concurrency: config.DITL_CONCURRENCY }, 'worker started');
    return () => worker.close();
  });
}

if (require.main === module) runMain('ditl-worker', async () => onShutdown(await startDitlWorkerProcess(), DRAIN_SECONDS.ditlWorker));
