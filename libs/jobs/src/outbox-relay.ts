import type { QueueName } from '@spark/contracts';
import type { Logger } from '@spark/logging';
import type { DataSource } from 'typeorm';
import type { JobQueues, JobRequest } from './job-queues';

export interface OutboxRelayOptions {
  /** How often pending rows are looked for when nobody kicks the relay. */
  pollMs?: number;
  /** After Redis lost its data, jobs dispatched this recently are added again (BullMQ keeps finished jobs a day). */
  recoveryWindowMs?: number;
  batchSize?: number;
}

interface OutboxRow {
  id: string;
  queue: QueueName;
  job_name: string;
  payload: unknown;
}

const DAY_MS = 24 * 3600 * 1000;
const PRUNE_EVERY_MS = 10 * 60 * 1000;

/**
 * Moves outbox rows to BullMQ (job id = outbox id). When Redis has lost its data (a marker key is
 * gone), rows dispatched within the recovery window are dispatched again, so no job is lost between
 * the database and the queue. Consumers must be idempotent: a job re-added after it had already run
 * runs twice.
 */
export class OutboxRelay {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private lastPrune = 0;
  private readonly pollMs: number;
  private readonly recoveryWindowMs: number;
  private readonly batchSize: number;

  constructor(
    private readonly dataSource: DataSource,
    private readonly schema: string,
    private readonly queues: JobQueues,
    private readonly logger: Logger,
    options: OutboxRelayOptions = {},
  ) {
    this.pollMs = options.pollMs ?? 1000;
    this.recoveryWindowMs = options.recoveryWindowMs ?? DAY_MS;
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
      await this.recoverLostJobs();
      while ((await this.dispatchPending()) === this.batchSize);
      await this.pruneOldRows();
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
      // The payload was validated when it was written; JobQueues.add validates it again.
      await this.queues.add(rows.map((row) => ({ job: { queue: row.queue, name: row.job_name, data: row.payload } as JobRequest, jobId: row.id })));
      await manager.query(`UPDATE "${this.schema}"."outbox" SET dispatched_at = now() WHERE id = ANY($1::uuid[])`, [
        rows.map((row) => row.id),
      ]);
      return rows.length;
    });
  }

  /** After a Redis flush or restart, marks recent rows pending again. Returns how many. */
  async recoverLostJobs(): Promise<number> {
    const marker = `outbox:${this.schema}`;
    if (!(await this.queues.lostDataSince(marker))) return 0;
    const [, count]: [unknown, number] = await this.dataSource.query(
      `UPDATE "${this.schema}"."outbox" SET dispatched_at = NULL
       WHERE dispatched_at > now() - make_interval(secs => $1)`,
      [this.recoveryWindowMs / 1000],
    );
    await this.queues.markRetained(marker);
    if (count > 0) this.logger.warn({ count }, 'Redis lost its data; re-dispatching recent outbox jobs');
    return count;
  }

  /** Rows older than a week have long finished or failed in BullMQ; keep the table small. */
  private async pruneOldRows(): Promise<void> {
    if (Date.now() - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = Date.now();
    await this.dataSource.query(`DELETE FROM "${this.schema}"."outbox" WHERE dispatched_at < now() - interval '7 days'`);
  }
}
