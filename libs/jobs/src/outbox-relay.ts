import type { QueueName } from '@spark/contracts';
import type { Logger } from '@spark/logging';
import { abortable } from '@spark/messaging';
import type { DataSource } from 'typeorm';
import type { JobQueues, JobRequest, QueuedJob } from './job-queues';
import { watchReachability } from './close-worker';
import { checkedPayload } from './outbox-rows';

export interface OutboxRelayOptions {
  /** How often pending rows are looked for when nobody kicks the relay. */
  pollMs?: number;
  /** After Redis lost its data, jobs dispatched this recently are added again (BullMQ keeps finished jobs a day). */
  recoveryWindowMs?: number;
  batchSize?: number;
  /** How often dispatched rows are checked against BullMQ until their jobs are finished. */
  reconcileMs?: number;
  /**
   * Runs a kick's pass when the rows it should send are visible: after the caller's transaction commits
   * (`afterCommit` of libs/persistence for a service's unit of work). By default at once.
   */
  afterCommit?: (task: () => void) => void;
}

interface OutboxRow {
  id: string;
  queue: QueueName;
  job_name: string;
  payload: unknown;
}

const DAY_MS = 24 * 3600 * 1000;
const PRUNE_EVERY_MS = 10 * 60 * 1000;
// How long a kick waits for more kicks before its pass starts: under load, one pass (one transaction, one BullMQ
// round trip) then carries the rows of many commits instead of a few.
const GATHER_MS = 5;
// A pass checks at most this many batches of dispatched rows against BullMQ, then dispatches again: a long backlog
// of unfinished jobs (their worker down for hours) is walked across passes instead of holding new rows back.
const RECONCILE_BATCHES_PER_PASS = 5;

type ReconcileCursor = { dispatched_at: string; id: string };

/** A row as a job with its payload checked once, or why no worker could run it. */
function checkedRow(row: OutboxRow): { job: JobRequest } | { refusal: string } {
  const job = { queue: row.queue, name: row.job_name, data: row.payload } as JobRequest;
  try {
    return { job: { ...job, data: checkedPayload(job) } as JobRequest };
  } catch (error) {
    return { refusal: (error instanceof Error ? error.message : String(error)).slice(0, 2000) };
  }
}

/**
 * Moves outbox rows to BullMQ (job id = outbox id). When Redis has lost its data (a marker key is
 * gone), rows dispatched within the recovery window are dispatched again; and until BullMQ reports a row's
 * job finished, the reconciler checks that the job still exists and dispatches it again when it does not
 * (a partial loss: an AOF rewound a second, a restore), so no job is lost between the database and the queue.
 * Consumers must be idempotent: a job re-added after it had already run runs twice.
 */
export class OutboxRelay {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private gathering?: NodeJS.Timeout;
  private again = false;
  private readonly stoppedWithoutRedis = new AbortController();
  private lastPrune = 0;
  private lastReconcile = 0;
  /** Where an unfinished walk over the dispatched rows resumes; undefined between walks. */
  private reconcileCursor?: ReconcileCursor;
  private readonly reconcileMs: number;
  private readonly afterCommit: (task: () => void) => void;
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
    this.reconcileMs = options.reconcileMs ?? 60_000;
    this.afterCommit = options.afterCommit ?? ((task) => task());
  }

  start(): void {
    this.timer = setInterval(() => this.kick(), this.pollMs);
    this.timer.unref();
    this.kick();
  }

  /** Asks for a pass once the caller's rows are committed; kicks that arrive during a pass coalesce into one more pass. */
  kick(): void {
    this.afterCommit(() => this.gatherThenPass());
  }

  private gatherThenPass(): void {
    if (this.gathering) return;
    this.gathering = setTimeout(() => {
      this.gathering = undefined;
      this.passSoon();
    }, GATHER_MS);
  }

  private passSoon(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.pass().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.passSoon();
      }
    });
  }

  /**
   * Takes no more passes and waits for the one in flight while Redis answers. Once Redis does not, the pass's waits on
   * it fail instead: its transaction rolls back and its rows stay pending for the next relay to dispatch.
   */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    clearTimeout(this.gathering);
    this.gathering = undefined;
    this.again = false;
    const reachability = watchReachability(this.queues.connection);
    const giveUp = () => this.stoppedWithoutRedis.abort(reachability.signal.reason);
    reachability.signal.addEventListener('abort', giveUp, { once: true });
    if (reachability.signal.aborted) giveUp();
    try {
      await this.running;
    } finally {
      reachability.signal.removeEventListener('abort', giveUp);
      reachability[Symbol.dispose]();
    }
  }

  /** A wait on Redis within a pass, given up when the relay stops while Redis does not answer. */
  private onRedis<T>(work: Promise<T>): Promise<T> {
    return abortable(work, this.stoppedWithoutRedis.signal);
  }

  private async pass(): Promise<void> {
    try {
      await this.recoverLostJobs();
      while ((await this.dispatchPending()) === this.batchSize);
      if (this.reconcileCursor || Date.now() - this.lastReconcile >= this.reconcileMs) {
        if (!this.reconcileCursor) this.lastReconcile = Date.now();
        await this.reconcileStep();
      }
      await this.pruneOldRows();
    } catch (error) {
      // Redis or PostgreSQL is away: the rows stay and the next pass tries again.
      this.logger.warn({ err: error }, 'outbox relay pass failed');
    }
  }

  /**
   * Returns how many rows it took. A row whose payload its job's schema refuses (written before payloads were
   * checked on write, or edited by hand) is set aside with its reason instead of blocking every later row.
   */
  async dispatchPending(): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const rows: (OutboxRow & { created_at: Date })[] = await manager.query(
        `SELECT id, queue, job_name, payload, created_at FROM "${this.schema}"."outbox"
         WHERE dispatched_at IS NULL ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [this.batchSize],
      );
      if (rows.length === 0) return 0;
      const runnable: QueuedJob[] = [];
      for (const row of rows) {
        const checked = checkedRow(row);
        if ('job' in checked) {
          // Dated when its row was written, also when dispatched again after Redis lost it: the notifier sends no
          // e-mail queued before its address was erased.
          runnable.push({ job: checked.job, jobId: row.id, queuedAt: row.created_at.getTime() });
          continue;
        }
        await manager.query(`UPDATE "${this.schema}"."outbox" SET dispatched_at = now(), confirmed_at = now(), rejected_reason = $2 WHERE id = $1`, [
          row.id,
          checked.refusal,
        ]);
        this.logger.error(
          { outboxId: row.id, job: `${row.queue}/${row.job_name}`, reason: checked.refusal },
          'outbox row set aside: its payload does not fit its job',
        );
      }
      await this.onRedis(this.queues.addChecked(runnable));
      await manager.query(`UPDATE "${this.schema}"."outbox" SET dispatched_at = now() WHERE id = ANY($1::uuid[])`, [runnable.map(({ jobId }) => jobId)]);
      return rows.length;
    });
  }

  /** After a Redis flush or restart, marks recent rows pending again. Returns how many. */
  async recoverLostJobs(): Promise<number> {
    const marker = `outbox:${this.schema}`;
    if (!(await this.onRedis(this.queues.lostDataSince(marker)))) return 0;
    const [, count]: [unknown, number] = await this.dataSource.query(
      `UPDATE "${this.schema}"."outbox" SET dispatched_at = NULL
       WHERE dispatched_at > now() - make_interval(secs => $1)`,
      [this.recoveryWindowMs / 1000],
    );
    await this.onRedis(this.queues.markRetained(marker));
    if (count > 0) this.logger.warn({ count }, 'Redis lost its data; re-dispatching recent outbox jobs');
    return count;
  }

  /**
   * Looks up every dispatched job not yet known to be finished: finished ones (completed, or failed for good)
   * are confirmed and never checked again, lost ones made pending for the next dispatch. Returns how many were lost.
   */
  async reconcile(): Promise<number> {
    return (await this.walk(undefined, Infinity)).lost;
  }

  /**
   * Continues the relay's own walk (the one its passes make) for at most RECONCILE_BATCHES_PER_PASS batches, from
   * where its last step stopped. `walked` is true when this step reached the end (the next step starts a new walk).
   */
  async reconcileStep(): Promise<{ lost: number; walked: boolean }> {
    const { lost, next } = await this.walk(this.reconcileCursor, RECONCILE_BATCHES_PER_PASS);
    this.reconcileCursor = next;
    return { lost, walked: !next };
  }

  /** Walks at most `batches` batches after `from`; `next` is where to go on, undefined once the walk reached the end. */
  private async walk(from: ReconcileCursor | undefined, batches: number): Promise<{ lost: number; next?: ReconcileCursor }> {
    let lost = 0;
    let next = from;
    for (let batch = 0; batch < batches; batch++) {
      // The cursor's time as PostgreSQL's text, to the microsecond: a JavaScript Date keeps milliseconds, and rows
      // dispatched together within one would all compare greater than it, so the walk would never get past them.
      const rows: (OutboxRow & ReconcileCursor)[] = await this.dataSource.query(
        `SELECT id, queue, dispatched_at::text AS dispatched_at FROM "${this.schema}"."outbox"
         WHERE dispatched_at IS NOT NULL AND confirmed_at IS NULL AND ($1::timestamptz IS NULL OR (dispatched_at, id) > ($1, $2::uuid))
         ORDER BY dispatched_at, id LIMIT $3`,
        [next?.dispatched_at ?? null, next?.id ?? null, this.batchSize],
      );
      if (rows.length > 0) lost += await this.settle(rows);
      next = rows.length < this.batchSize ? undefined : rows[rows.length - 1];
      if (!next) break;
    }
    if (lost > 0) {
      this.logger.warn({ count: lost }, 'jobs missing from Redis; re-dispatching them');
      this.kick();
    }
    return { lost, next };
  }

  /** Confirms the rows whose jobs finished and makes the missing ones pending again; returns how many were missing. */
  private async settle(rows: OutboxRow[]): Promise<number> {
    const states = await this.onRedis(this.queues.whereAre(rows.map((row) => ({ queue: row.queue, jobId: row.id }))));
    const finished = rows.filter((_, index) => states[index] === 'finished').map((row) => row.id);
    const missing = rows.filter((_, index) => states[index] === 'missing').map((row) => row.id);
    if (finished.length > 0) await this.dataSource.query(`UPDATE "${this.schema}"."outbox" SET confirmed_at = now() WHERE id = ANY($1::uuid[])`, [finished]);
    if (missing.length > 0) {
      await this.dataSource.query(`UPDATE "${this.schema}"."outbox" SET dispatched_at = NULL WHERE id = ANY($1::uuid[]) AND confirmed_at IS NULL`, [missing]);
    }
    return missing.length;
  }

  /** Rows older than a week have long finished or failed in BullMQ; keep the table small. */
  private async pruneOldRows(): Promise<void> {
    if (Date.now() - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = Date.now();
    await this.dataSource.query(`DELETE FROM "${this.schema}"."outbox" WHERE dispatched_at < now() - interval '7 days'`);
  }
}
