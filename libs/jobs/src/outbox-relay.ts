import type { QueueName } from '@spark/contracts';
import type { Logger } from '@spark/logging';
import type { DataSource } from 'typeorm';
import type { JobQueues, JobRequest } from './job-queues';

export interface OutboxRelayOptions {
  /** How often pending rows are looked for when nobody kicks the relay. */
  pollMs?: number;
  /** A dispatched job whose state is not known after this long is checked, and re-added if Redis lost it. */
  verifyAfterMs?: number;
  batchSize?: number;
}

interface OutboxRow {
  id: string;
  queue: QueueName;
  job_name: string;
  payload: unknown;
}

/**
 * Moves outbox rows to BullMQ (job id = outbox id) and watches them until BullMQ reports them
 * finished; a job that Redis lost (restart, flush) is added again. Consumers must be idempotent:
 * a job re-added after it had already run will run twice.
 */
export class OutboxRelay {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private readonly pollMs: number;
  private readonly verifyAfterMs: number;
  private readonly batchSize: number;

  constructor(
    private readonly dataSource: DataSource,
    private readonly schema: string,
    private readonly queues: JobQueues,
    private readonly logger: Logger,
    options: OutboxRelayOptions = {},
  ) {
    this.pollMs = options.pollMs ?? 1000;
    this.verifyAfterMs = options.verifyAfterMs ?? 10_000;
    this.batchSize = options.batchSize ?? 200;
  }

  start(): void {
    this.timer = setInterval(() => this.kick(), this.pollMs);
    this.timer.unref();
    this.kick();
  }

  /** Asks for a pass soon; kicks that arrive during a pass coalesce into one more pass. */
  kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.pass().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.kick();
      }
    });
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.again = false;
    await this.running;
  }

  private async pass(): Promise<void> {
    try {
      while ((await this.dispatchPending()) === this.batchSize);
      await this.verifyDispatched();
    } catch (error) {
      // Redis or PostgreSQL is away: the rows stay and the next pass tries again.
      this.logger.warn({ err: error }, 'outbox relay pass failed');
    }
  }

  /** Returns how many rows it dispatched. */
  async dispatchPending(): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const rows: OutboxRow[] = await manager.query(
        `SELECT id, queue, job_name, payload FROM "${this.schema}"."outbox"
         WHERE dispatched_at IS NULL ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [this.batchSize],
      );
      if (rows.length === 0) return 0;
      await this.queues.add(rows.map((row) => ({ job: toJob(row), jobId: row.id })));
      await manager.query(`UPDATE "${this.schema}"."outbox" SET dispatched_at = now() WHERE id = ANY($1::uuid[])`, [
        rows.map((row) => row.id),
      ]);
      return rows.length;
    });
  }

  /** Marks finished jobs, and re-adds the ones BullMQ no longer knows. Returns how many it re-added. */
  async verifyDispatched(): Promise<number> {
    const rows: OutboxRow[] = await this.dataSource.query(
      `SELECT id, queue, job_name, payload FROM "${this.schema}"."outbox"
       WHERE dispatched_at IS NOT NULL AND finished_at IS NULL AND dispatched_at < now() - make_interval(secs => $1)
       ORDER BY dispatched_at LIMIT $2`,
      [this.verifyAfterMs / 1000, this.batchSize],
    );
    const finished: { id: string; outcome: string }[] = [];
    const lost: OutboxRow[] = [];
    await Promise.all(
      rows.map(async (row) => {
        const state = await this.queues.queue(row.queue).getJobState(row.id);
        if (state === 'completed' || state === 'failed') finished.push({ id: row.id, outcome: state });
        else if (state === 'unknown') lost.push(row);
      }),
    );
    if (lost.length > 0) {
      this.logger.warn({ count: lost.length }, 'outbox jobs missing from Redis; re-adding them');
      await this.queues.add(lost.map((row) => ({ job: toJob(row), jobId: row.id })));
    }
    await this.dataSource.query(
      `UPDATE "${this.schema}"."outbox" AS o SET
         finished_at = CASE WHEN f.outcome IS NULL THEN NULL ELSE now() END,
         outcome = f.outcome,
         dispatched_at = CASE WHEN f.outcome IS NULL THEN now() ELSE o.dispatched_at END
       FROM unnest($1::uuid[], $2::text[]) AS f(id, outcome) WHERE o.id = f.id`,
      [
        [...finished.map((row) => row.id), ...lost.map((row) => row.id)],
        [...finished.map((row) => row.outcome), ...lost.map(() => null)],
      ],
    );
    return lost.length;
  }
}

// The payload was validated when it was written; JobQueues.add validates it again.
const toJob = (row: OutboxRow) => ({ queue: row.queue, name: row.job_name, data: row.payload }) as JobRequest;
