import type { SigningKeys } from '@spark/config';
import type { JobName, JobPayload, QueueName } from '@spark/contracts';
import { type JobsOptions, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { signedJobData } from './job-signatures';
import { checkedPayload } from './outbox-rows';
import { jobOptionsOf } from './retry-budget';

/** Every job of every queue as one discriminated union: a wrong payload does not compile. */
export type JobRequest = {
  [Q in QueueName]: { [N in JobName<Q>]: { queue: Q; name: N; data: JobPayload<Q, N> } }[JobName<Q>];
}[QueueName];

/** A job with its id, when it was queued if not now (BullMQ's `job.timestamp`), and how long it waits before it may run. */
export interface QueuedJob {
  job: JobRequest;
  jobId: string;
  queuedAt?: number;
  delayMs?: number;
}

/** BullMQ keys live under the bus prefix so several stacks can share one Redis. */
export const bullPrefix = (busPrefix: string) => `${busPrefix}:bull`;

/** The one typed producer for every queue. Payloads are validated before they are queued, and signed (`signedJobData`). */
export class JobQueues {
  private readonly queues = new Map<QueueName, Queue>();

  constructor(
    /** Shared with the outbox relay, which watches it while it stops. */
    readonly connection: Redis,
    private readonly busPrefix: string,
    /** The keys of the jobs this app queues; a process that only reads the queues needs none. */
    private readonly keys: SigningKeys = new Map(),
  ) {}

  queue(name: QueueName): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: this.connection, prefix: bullPrefix(this.busPrefix) });
      this.queues.set(name, queue);
    }
    return queue;
  }

  /** Adds jobs; a job id that is already queued is left alone by BullMQ, which makes re-adding safe. */
  async add(jobs: ReadonlyArray<Omit<QueuedJob, 'queuedAt'>>): Promise<void> {
    await this.addChecked(jobs.map(({ job, ...queued }) => ({ ...queued, job: { ...job, data: checkedPayload(job) } as JobRequest })));
  }

  /** `add` for jobs whose payloads were already checked (the outbox relay checks each row once). */
  async addChecked(jobs: readonly QueuedJob[]): Promise<void> {
    if (jobs.length === 0) return;
    const byQueue = new Map<QueueName, { name: string; data: unknown; opts: JobsOptions }[]>();
    for (const { job, jobId, queuedAt, delayMs } of jobs) {
      const bulk = byQueue.get(job.queue) ?? [];
      bulk.push({
        name: job.name,
        data: signedJobData(this.keys, job, jobId),
        opts: { ...jobOptionsOf(job.queue), jobId, timestamp: queuedAt, delay: delayMs },
      });
      byQueue.set(job.queue, bulk);
    }
    await Promise.all([...byQueue].map(([queue, bulk]) => this.queue(queue).addBulk(bulk)));
  }

  /**
   * Where each job stands, in one round trip: `finished` (completed, or failed for good), `queued` (waiting,
   * running or retrying) or `missing` (Redis lost it). Reads two fields of each job's hash instead of loading the
   * whole job (nor asking `getJobState`, which searches the wait list), so checking thousands of jobs stays cheap.
   */
  async whereAre(jobs: ReadonlyArray<{ queue: QueueName; jobId: string }>): Promise<('finished' | 'queued' | 'missing')[]> {
    if (jobs.length === 0) return [];
    const pipeline = this.connection.pipeline();
    for (const { queue, jobId } of jobs) pipeline.hmget(this.queue(queue).toKey(jobId), 'timestamp', 'finishedOn');
    const replies = (await pipeline.exec()) ?? [];
    return replies.map(([error, fields]) => {
      if (error) throw error;
      const [timestamp, finishedOn] = fields as (string | null)[];
      if (timestamp === null || timestamp === undefined) return 'missing';
      return finishedOn === null || finishedOn === undefined ? 'queued' : 'finished';
    });
  }

  /**
   * True when Redis has lost its data (flush, restart without persistence) since `markRetained`
   * was last called for `name`, or was never called: the job keys are then gone too.
   */
  async lostDataSince(name: string): Promise<boolean> {
    return (await this.connection.exists(this.markerKey(name))) === 0;
  }

  async markRetained(name: string): Promise<void> {
    await this.connection.set(this.markerKey(name), new Date().toISOString());
  }

  private markerKey(name: string): string {
    return `${this.busPrefix}:retained:${name}`;
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((queue) => queue.close()));
  }
}
