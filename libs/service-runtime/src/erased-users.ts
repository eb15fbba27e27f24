import { DomainError } from '@spark/errors';
import type { DataSource, EntityManager } from 'typeorm';

const SCHEMA_NAME = /^[a-z_]+$/;

/** What a write refused for an erased client answers. */
export const accountErased = () => new DomainError('NOT_FOUND', 'This account no longer exists.');

/**
 * The clients a schema erased in the last day (`<schema>.erased_users`), by id alone. A request already under way when
 * its client was erased (a capture, an onboarding, a Day in the Life) would otherwise write their rows again after the
 * erasure, with their address; a day outlasts any request in flight.
 */
export function erasedUsers(schema: string) {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`Not a schema name: ${schema}`);
  const table = `"${schema}".erased_users`;
  const lockOf = (lock: string) => `${lock}(hashtext('${table}'), hashtext($1::uuid::text))`;
  return {
    /** Holds while `$1`, a client's id, has not been erased: a statement that would write about them asks it. */
    notErasedSql: `NOT EXISTS (SELECT 1 FROM ${table} WHERE user_id = $1)`,
    /**
     * Taken by a write that asks `notErasedSql`, in its transaction and in a statement before the one that asks (a
     * statement sees only what committed before it began): `markErased` then waits for that write to commit, so the
     * erasure's rows pass finds it, or commits first, so the write finds the client erased.
     */
    erasureLockSql: `SELECT ${lockOf('pg_advisory_xact_lock_shared')}`,
    /** Notes `$1` as erased now, inside the caller's transaction: seen by other writes only once that commits. */
    markErasedSql: `INSERT INTO ${table} (user_id) VALUES ($1) ON CONFLICT (user_id) DO UPDATE SET erased_at = now()`,
    /**
     * Notes `userId` as erased and commits at once, on a connection of its own, even inside a unit of work: an
     * erasure's transaction commits only at its end, and until then every write racing it would find the client not
     * erased. It waits for the writes under `erasureLockSql` to commit first.
     */
    async markErased(dataSource: DataSource, userId: string): Promise<void> {
      const runner = dataSource.createQueryRunner();
      try {
        await runner.query(
          `INSERT INTO ${table} (user_id) SELECT $1::uuid FROM ${lockOf('pg_advisory_xact_lock')}
           ON CONFLICT (user_id) DO UPDATE SET erased_at = now()`,
          [userId],
        );
      } finally {
        await runner.release();
      }
    },
    /** Forgets the erasures of over a day ago. */
    async forgetOld(dataSource: DataSource | EntityManager): Promise<void> {
      await dataSource.query(`DELETE FROM ${table} WHERE erased_at < now() - interval '1 day'`);
    },
  };
}
