import type { DitlConfig } from '@spark/config';
import { QUEUES } from '@spark/contracts';
import { bullPrefix, closeWorker, type JobHandlers, assertHandlersComplete, maxStalledCountOf, runJob, WORKER_METRICS } from '@spark/jobs';
import { type Logger, runWithCorrelationId } from '@spark/logging';
import { ObjectStorage } from '@spark/storage';
import { type Job, UnrecoverableError, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import { GIVE_UP_SECONDS } from '../generations/give-up';
import { GenerationsRepository } from '../generations/generations.repository';
import { OfflinePlanner, warmUpOfflinePlanner } from '../planner/offline-planner';
import { OpenAiPlanner } from '../planner/openai-planner';
import type { DitlPlanner } from '../planner/planner';
import { forgetOldErasures } from '../erasure/ditl-erasure';
import { DitlGenerator, GenerationFailedError, GenerationHeldError } from './ditl-generator';

export interface DitlWorkerDependencies {
  config: DitlConfig;
  dataSource: DataSource;
  logger: Logger;
  /** Asks the outbox relay to send the queued e-mail now rather than at its next poll. */
  kickOutbox: () => void;
  /** Replaces the configured planner (benchmarks simulate a model call of a known length). */
  planner?: DitlPlanner;
}

export function plannerFor(config: DitlConfig): DitlPlanner {
  if (!config.OPENAI_API_KEY && !config.OPENAI_BASE_URL) return new OfflinePlanner();
  return new OpenAiPlanner({ apiKey: config.OPENAI_API_KEY, baseUrl: config.OPENAI_BASE_URL, model: config.OPENAI_MODEL, timeoutMs: config.OPENAI_TIMEOUT_MS });
}

/**
 * The BullMQ consumer of the `ditl` queue: DITL_CONCURRENCY jobs at once per process. A job whose
 * worker dies keeps its lock only DITL_LOCK_MS; the stalled-job check of any live worker then
 * puts it back, and the generator's status check makes the second run complete it exactly once.
 */
export function startDitlWorker(deps: DitlWorkerDependencies): { worker: Worker; close(): Promise<void> } {
  const { config, logger } = deps;
  // Every planner may need the offline plan (a model's plan can fail the plan checks).
  warmUpOfflinePlanner();
  const storage = new ObjectStorage(config);
  const generations = new GenerationsRepository(deps.dataSource);
  const generator = new DitlGenerator(
    generations,
    deps.planner ?? plannerFor(config),
    storage,
    { attempts: config.DITL_ATTEMPTS, backoffMs: config.DITL_BACKOFF_MS, leaseMs: config.DITL_LOCK_MS },
    logger,
    deps.kickOutbox,
  );
  const handlers: JobHandlers<'ditl'> = {
    'generate-ditl': async (data, job) => {
      try {
        await generator.run(data.generationId);
      } catch (error) {
        if (error instanceof GenerationFailedError) throw new UnrecoverableError(error.message);
        // Retried with back-off; its last delivery leaves the generation to the run that has it, or to the sweep.
        if (error instanceof GenerationHeldError) throw error;
        // Storage or database trouble: BullMQ retries with back-off; the last delivery records the failure.
        if (job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) await generations.fail(data.generationId, String(error));
        throw error;
      }
    },
  };
  assertHandlersComplete(QUEUES.ditl, handlers);
  const connection = new Redis(config.REDIS_URL, { maxRetriesPerRequest: null });
  const worker = new Worker(
    QUEUES.ditl,
    (job: Job) => runWithCorrelationId(`job:${job.id ?? 'unknown'}`, () => runJob(QUEUES.ditl, handlers, job, config.SIGNING_KEYS)),
    {
      connection,
      prefix: bullPrefix(config.BUS_PREFIX),
      concurrency: config.DITL_CONCURRENCY,
      lockDuration: config.DITL_LOCK_MS,
      stalledInterval: config.DITL_LOCK_MS,
      maxStalledCount: maxStalledCountOf(QUEUES.ditl),
      metrics: WORKER_METRICS,
    },
  );
  worker.on('error', (error) => logger.warn({ err: error }, 'DITL worker error'));
  // Every worker sweeps; the updates are idempotent, so several at once do no harm.
  const sweep = () => {
    void generations.failStale(GIVE_UP_SECONDS).then(
      (ids) => ids.length > 0 && logger.warn({ generationIds: ids }, 'failed DITL generations left unfinished too long'),
      (error: unknown) => logger.warn({ err: error }, 'sweeping unfinished DITL generations failed'),
    );
    void forgetOldErasures(deps.dataSource).catch((error: unknown) => logger.warn({ err: error }, 'forgetting old DITL erasures failed'));
  };
  const sweeper = setInterval(sweep, config.DITL_SWEEP_MS);
  sweeper.unref();
  return {
    worker,
    async close() {
      clearInterval(sweeper);
      await closeWorker(worker, connection);
      connection.disconnect();
      await storage.close();
    },
  };
}
