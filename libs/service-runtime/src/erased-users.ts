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
  return {
    /** Holds while `$1`, a client's id, has not been erased: a statement that would write about them asks it. */
    notErasedSql: `NOT EXISTS (SELECT 1 FROM ${table} WHERE user_id = $1)`,
    /** Notes `$1` as erased now. */
    markErasedSql: `INSERT INTO ${table} (user_id) VALUES ($1) ON CONFLICT (user_id) DO UPDATE SET erased_at = now()`,
    /** Forgets the erasures of over a day ago. */
    async forgetOld(dataSource: DataSource | EntityManager): Promise<void> {
      await dataSource.query(`DELETE FROM ${table} WHERE erased_at < now() - interval '1 day'`);
    },
  };
}
