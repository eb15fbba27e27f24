import type { Client } from 'pg';

/**
 * One hash of every row of every table in the services' schemas: equal before and after means nothing was
 * written, inserted or deleted in between.
 */
export async function databaseFingerprint(db: Client): Promise<string> {
  const { rows: tables } = await db.query<{ name: string }>(
    `SELECT format('%I.%I', table_schema, table_name) AS name FROM information_schema.tables
     WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1`,
  );
  if (tables.length === 0) return '';
  const perTable = tables.map(({ name }) => `SELECT '${name}' AS name, md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS hash FROM ${name} t`);
  const { rows } = await db.query<{ fingerprint: string }>(
    `SELECT md5(string_agg(name || ':' || hash, ',' ORDER BY name)) AS fingerprint FROM (${perTable.join(' UNION ALL ')}) tables`,
  );
  return rows[0]?.fingerprint ?? '';
}
