import type { SigningKeys } from '@spark/config';
import { type JobName, type JobPayload, type QueueName, jobSchemaOf, jobsByQueue } from '@spark/contracts';
import { type Job, MetricsTime, UnrecoverableError } from 'bullmq';
import { verifiedJobData } from './job-signatures';

/** Every worker records per-minute counts of finished jobs (a week of them) for the completion-rate metric. */
export const WORKER_METRICS = { maxDataPoints: MetricsTime.ONE_WEEK };

/** One handler per job name of a queue; a missing one does not compile. */
export type JobHandlers<Q extends QueueName> = {
  [N in JobName<Q>]: (data: JobPayload<Q, N>, job: Job) => Promise<void>;
};

/** A worker refuses to start when a job of its queue has no handler (or an unknown one is registered). */
export function assertHandlersComplete<Q extends QueueName>(queue: Q, handlers: JobHandlers<Q>): void {
  const expected = Object.keys(jobsByQueue[queue]).sort();
  const actual = Object.keys(handlers).sort();
  if (expected.join() !== actual.join()) {
    throw new Error(`Queue ${queue} needs exactly one handler for each of ${expected.join(', ')}; got ${actual.join(', ')}`);
  }
}

/** Checks a job's signature, validates its payload with its schema and runs its handler; a bad job is never retried. */
export async function runJob<Q extends QueueName>(queue: Q, handlers: JobHandlers<Q>, job: Job, keys: SigningKeys): Promise<void> {
  const schema = jobSchemaOf(queue, job.name);
  if (!schema) throw new UnrecoverableError(`No handler for job ${queue}/${job.name}`);
  const parsed = schema.safeParse(verifiedJobData(keys, queue, job));
  if (!parsed.success) throw new UnrecoverableError(`Invalid payload for ${queue}/${job.name}: ${parsed.error.message}`);
  const handler = handlers[job.name as JobName<Q>] as (data: unknown, job: Job) => Promise<void>;
  await handler(parsed.data, job);
}
