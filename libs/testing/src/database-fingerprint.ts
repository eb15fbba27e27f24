import type { Client } from 'pg';

/**
 * A hash of every row of each table in the services' schemas, keyed by table: equal before and after means
 * nothing was written, inserted or deleted in between, and a difference names the table that changed.
 */
export async function databaseFingerprint(db: Client): Promise<Record<string, string>> {
  const { rows: tables } = await db.query<{ name: string }>(
    `SELECT format('%I.%I', table_schema, table_name) AS name FROM information_schema.tables
     WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1`,
  );
  if (tables.length === 0) return {};
  const perTable = tables.map(({ name }) => `SELECT '${name}' AS name, md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS hash FROM ${name} t`);
  const { rows } = await db.query<{ name: string; hash: string }>(perTable.join(' UNION ALL '));
  return Object.fromEntries(rows.map(({ name, hash }) => [name, hash]));
}
