import type { Client } from 'pg';

/** Every table of every schema whose rows mention `needle` anywhere (any column, as text), with the count, by name. */
export async function tablesMentioning(db: Client, needle: string): Promise<string[]> {
  const { rows: tables } = await db.query<{ name: string }>(
    `SELECT format('%I.%I', table_schema, table_name) AS name FROM information_schema.tables
     WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1`,
  );
  const found: string[] = [];
  for (const { name } of tables) {
    const { rows } = await db.query<{ count: string }>(`SELECT count(*) FROM ${name} AS r WHERE strpos(lower(r::text), $1) > 0`, [needle.toLowerCase()]);
    if (Number(rows[0]?.count) > 0) found.push(`${name} (${rows[0]?.count})`);
  }
  return found;
}
