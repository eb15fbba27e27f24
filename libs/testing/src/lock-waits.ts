import type { SqlRunner } from './users';

/**
 * How many connections to this database wait on a lock; only those whose query contains `queryPart`, when given.
 * Ask on a connection outside any open transaction: inside one, PostgreSQL lists the connections as they were at the
 * transaction's first look.
 */
export async function lockWaiters(db: SqlRunner, queryPart = ''): Promise<number> {
  const answer = await db.query(
    `SELECT count(*)::int AS waiting FROM pg_stat_activity
     WHERE datname = current_database() AND wait_event_type = 'Lock' AND strpos(query, $1) > 0`,
    [queryPart],
  );
  // A pg client answers { rows }, a TypeORM DataSource the rows themselves.
  const [row] = (Array.isArray(answer) ? answer : (answer as { rows: unknown[] }).rows) as { waiting: number }[];
  return row?.waiting ?? 0;
}

/**
 * Ends the connections waiting on a lock in this database. After a test kills a process whose write waits on a row,
 * PostgreSQL would still run that queued write once the row is free; a crash a moment earlier would not have sent it.
 */
export async function endLockWaiters(db: SqlRunner): Promise<void> {
  await db.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`);
}
