import { AsyncLocalStorage } from 'node:async_hooks';
import type { PoolClient, QueryResultRow } from 'pg';
import { DataSource, type EntityManager, type QueryRunner } from 'typeorm';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';
import type { IsolationLevel } from 'typeorm/driver/types/IsolationLevel';

/**
 * One transaction that every query of a piece of work joins, however deep in the code it is issued: a
 * command's effect and the record that it ran then commit or roll back together. The connection is taken at
 * the first query, so work that never touches the database holds none.
 */
class UnitOfWork {
  private started?: Promise<QueryRunner>;
  private readonly onCommit: (() => void)[] = [];
  private readonly batches = new Map<unknown, PendingBatch>();
  open = true;

  constructor(
    private readonly dataSource: ServiceDataSource,
    private readonly deadline?: number,
  ) {}

  manager(): Promise<EntityManager> {
    return this.runner().then((runner) => runner.manager);
  }

  /**
   * Runs `statement` on the unit's connection. Work running side by side in one unit (a group of commands) may hand it
   * several at once: the connection is pipelined, so they leave without waiting for each other and run in the order
   * they were issued.
   */
  async onConnection<T>(statement: (runner: QueryRunner) => Promise<T>): Promise<T> {
    return statement(await this.runner());
  }

  private runner(): Promise<QueryRunner> {
    return (this.started ??= this.begin());
  }

  afterCommit(task: () => void): void {
    this.onCommit.push(task);
  }

  join<I, O>(flush: BatchFlush<I, O>, item: I): Promise<O> {
    const batch = this.batches.get(flush) ?? this.gather(flush as BatchFlush<unknown, unknown>);
    return new Promise<O>((resolve, reject) => {
      batch.items.push(item);
      batch.waiters.push({ resolve: resolve as (value: unknown) => void, reject });
    });
  }

  private gather(flush: BatchFlush<unknown, unknown>): PendingBatch {
    const batch: PendingBatch = { flush, items: [], waiters: [] };
    this.batches.set(flush, batch);
    // After every piece of work running side by side in this unit has had its turn to join.
    setImmediate(() => {
      this.batches.delete(flush);
      flushBatch(batch);
    });
    return batch;
  }

  /** `last`, a statement without parameters, runs in the COMMIT's round trip: when it fails, nothing commits. */
  async finish(outcome: 'commit' | 'rollback', last?: string): Promise<void> {
    this.open = false;
    const runner = await this.started?.catch(() => undefined);
    if (!runner) {
      // A single statement commits on its own.
      if (outcome === 'commit' && last) await this.dataSource.query(last);
      if (outcome === 'commit') this.runAfterCommit();
      return;
    }
    const late = outcome === 'commit' && this.deadline !== undefined && Date.now() >= this.deadline;
    try {
      if (outcome === 'commit' && !late) await runner.query(last ? `${last}; COMMIT` : 'COMMIT');
      else await runner.query('ROLLBACK').catch(() => undefined);
    } catch (error) {
      // The failed statement left the transaction aborted (its COMMIT never ran): end it before the connection is reused.
      await runner.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      await runner.release();
    }
    if (late) throw new DeadlinePassed();
    if (outcome === 'commit') this.runAfterCommit();
  }

  private runAfterCommit(): void {
    // Outside this unit: what they start must not try to join a transaction that has ended.
    for (const task of this.onCommit) ambientUnit.exit(task);
  }

  /**
   * Opens the transaction without waiting for its answer: on the pipelined connection the unit's first statement
   * leaves right behind it instead of a round trip later. The opening message always parses (its one variable is a
   * number), so BEGIN runs before anything behind it; a failure after BEGIN aborts the transaction, and the statements
   * behind it fail with "current transaction is aborted" (a lost connection fails them all).
   */
  private async begin(): Promise<QueryRunner> {
    const runner = this.dataSource.createQueryRunner();
    try {
      const connection = (await runner.connect()) as PoolClient;
      // No statement may outlast the caller's patience. TypeORM is not told of this transaction, which is safe because
      // the services speak SQL only (no entity `save`, which would open and commit its own).
      const timeout = this.deadline === undefined ? '' : `; SET LOCAL statement_timeout = ${Math.max(1, Math.floor(this.deadline - Date.now()))}`;
      // One message, so one socket write; its failure reaches the work through the statements behind it.
      connection.query(`BEGIN${timeout}`).catch(() => undefined);
      return runner;
    } catch (error) {
      await runner.release();
      throw error;
    }
  }
}

/** Writes many items with one statement: one result per item, in their order. */
export type BatchFlush<I, O> = (items: readonly I[]) => Promise<readonly O[]>;

interface PendingBatch {
  flush: BatchFlush<unknown, unknown>;
  items: unknown[];
  waiters: { resolve: (value: unknown) => void; reject: (reason: unknown) => void }[];
}

function flushBatch({ flush, items, waiters }: PendingBatch): void {
  flush(items).then(
    (results) => waiters.forEach((waiter, index) => waiter.resolve(results[index])),
    (error: unknown) => waiters.forEach((waiter) => waiter.reject(error)),
  );
}

/** The unit's deadline passed before it could commit: it rolled back, and its caller has stopped waiting. */
export class DeadlinePassed extends Error {
  constructor() {
    super('The deadline passed before the work could commit; it was rolled back');
  }
}

const ambientUnit = new AsyncLocalStorage<UnitOfWork>();

const openUnit = (): UnitOfWork | undefined => {
  const unit = ambientUnit.getStore();
  return unit?.open ? unit : undefined;
};

/**
 * Runs `work` in one transaction on `dataSource` that every `query` and `transaction` call made during it
 * joins (through `ServiceDataSource`): commits when it resolves, rolls back when it throws. With a `deadline`
 * (local epoch ms) each statement is cut off at it, and work that ends after it rolls back (`DeadlinePassed`).
 * `lastStatement` makes, from the work's result, a statement without parameters that commits with it in the
 * COMMIT's round trip (so one round trip fewer than a query of its own); its error rolls the work back and is thrown.
 */
export async function inUnitOfWork<T>(
  dataSource: ServiceDataSource,
  work: () => Promise<T>,
  deadline?: number,
  lastStatement?: (result: T) => string,
): Promise<T> {
  const unit = new UnitOfWork(dataSource, deadline);
  let result: T;
  let last: string | undefined;
  try {
    result = await ambientUnit.run(unit, work);
    last = lastStatement?.(result);
  } catch (error) {
    await unit.finish('rollback');
    throw error;
  }
  await unit.finish('commit', last);
  return result;
}

/** Runs `task` once the current unit of work has committed (never if it rolls back), or now outside one. */
export function afterCommit(task: () => void): void {
  const unit = openUnit();
  if (unit) unit.afterCommit(task);
  else task();
}

/**
 * Hands `item` to `flush` together with the items that other work running side by side in the same unit of work
 * (a group of commands committed together) hands it in this turn of the event loop, so they share one statement.
 * Outside a unit of work the item is flushed alone. `flush` must be one function for one statement, kept for good.
 */
export function joinBatch<I, O>(flush: BatchFlush<I, O>, item: I): Promise<O> {
  const unit = openUnit();
  if (unit) return unit.join(flush, item);
  return flush([item]).then((results) => results[0] as O);
}

/**
 * The DataSource every service uses: inside a unit of work its `query` and `transaction` join the unit's
 * transaction instead of taking a connection of their own. Query runners made with `createQueryRunner` stay
 * independent.
 */
export class ServiceDataSource extends DataSource {
  constructor(options: PostgresConnectionOptions) {
    // Pipelined connections: what is issued while an earlier statement runs leaves at once instead of waiting for its
    // answer (a unit of work's BEGIN and first statement travel together).
    super({ ...options, extra: { ...options.extra, pipeline: true } });
  }

  override async query<T = unknown>(query: string, parameters?: unknown[], queryRunner?: QueryRunner): Promise<T> {
    const unit = queryRunner ? undefined : openUnit();
    if (!unit) return super.query(query, parameters, queryRunner);
    return unit.onConnection((runner) => runner.query(query, parameters));
  }

  /**
   * `query` as a named prepared statement: PostgreSQL plans it once per connection instead of on every call, which
   * pays for a hot read whose planning costs about as much as running it. `name` must stand for this one SQL text.
   * It goes to the pg connection directly (TypeORM has no prepared statements), so TypeORM's query logger does not
   * see it; errors are pg's own, which `isDatabaseUnavailable` knows too.
   */
  async preparedQuery<T>(name: string, sql: string, parameters: unknown[]): Promise<T[]> {
    const prepared = async (runner: QueryRunner) => {
      const client = (await runner.connect()) as PoolClient;
      return (await client.query<T & QueryResultRow>({ name, text: sql, values: parameters })).rows;
    };
    const unit = openUnit();
    if (unit) return unit.onConnection(prepared);
    const runner = this.createQueryRunner();
    try {
      return await prepared(runner);
    } finally {
      await runner.release();
    }
  }

  override transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T>;
  override transaction<T>(isolationLevel: IsolationLevel, work: (manager: EntityManager) => Promise<T>): Promise<T>;
  override async transaction<T>(
    isolationOrWork: IsolationLevel | ((manager: EntityManager) => Promise<T>),
    maybeWork?: (manager: EntityManager) => Promise<T>,
  ): Promise<T> {
    const unit = openUnit();
    if (!unit) {
      return typeof isolationOrWork === 'function' ? super.transaction(isolationOrWork) : super.transaction(isolationOrWork, maybeWork!);
    }
    const work = typeof isolationOrWork === 'function' ? isolationOrWork : maybeWork!;
    return work(await unit.manager());
  }
}
