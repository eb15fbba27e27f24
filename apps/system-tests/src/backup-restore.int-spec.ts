import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createTestDatabase, TINY_PNG, type TestDatabase, captureSpark } from '@spark/testing';
import { Client } from 'pg';
import { createSignedInUser, TEST_JWT_SECRET } from './ditl-auth';
import { type InProcessStack, startInProcessStack } from './in-process-stack';

const run = promisify(execFile);

/** The runbook's logical backup (docs/operations.md, "Backups"): dump, lose the database, restore, and find the product whole. */
describe('a PostgreSQL backup restored into an empty database', () => {
  let database: TestDatabase;
  let directory: string;
  let stack: InProcessStack | undefined;

  const call = (path: string, init: RequestInit = {}, token?: string) =>
    fetch(`${stack?.baseUrl}${path}`, {
      ...init,
      headers: { ...(init.body instanceof FormData ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
  const withDb = async <T>(work: (db: Client) => Promise<T>): Promise<T> => {
    const db = new Client({ connectionString: database.url });
    await db.connect();
    try {
      return await work(db);
    } finally {
      await db.end();
    }
  };
  /** Every applied migration, schema by schema: a restore must bring them all back, so nothing runs twice. */
  const appliedMigrations = () =>
    withDb(async (db) => {
      const schemas = await db.query<{ schema: string }>(
        `SELECT table_schema AS schema FROM information_schema.tables WHERE table_name = 'migrations' ORDER BY 1`,
      );
      const applied: string[] = [];
      for (const { schema } of schemas.rows) {
        const rows = await db.query<{ name: string }>(`SELECT name FROM "${schema}".migrations ORDER BY id`);
        applied.push(...rows.rows.map((row) => `${schema}.${row.name}`));
      }
      return applied;
    });

  beforeAll(async () => {
    database = await createTestDatabase();
    directory = await mkdtemp(join(tmpdir(), 'spark-backup-'));
  });
  afterAll(async () => {
    await stack?.stop();
    await database.drop();
    await rm(directory, { recursive: true, force: true });
  });

  it('brings back leads, users, sparks and notes with every migration applied, and takes new writes', async () => {
    stack = await startInProcessStack({ databaseUrl: database.url, env: { JWT_SECRET: TEST_JWT_SECRET } });
    const lead = `restored-lead-${randomUUID().slice(0, 8)}@example.com`;
    expect((await call('/api/leads', { method: 'POST', body: JSON.stringify({ email: lead }) })).status).toBe(201);
    const { coach, client } = await withDb(async (db) => ({
      coach: await createSignedInUser(db, `coach-${randomUUID().slice(0, 8)}@example.com`, 'coach'),
      client: await createSignedInUser(db, `client-${randomUUID().slice(0, 8)}@example.com`),
    }));
    const captured = await captureSpark(
      stack.baseUrl,
      { authorization: `Bearer ${client.token}` },
      { bytes: TINY_PNG, note: 'Morning walk before the backup' },
    );
    expect(captured.status).toBe(201);
    const noted = await call(
      `/api/progress/clients/${client.id}/notes`,
      { method: 'POST', body: JSON.stringify({ message: 'Keep the morning walk.', isPinned: true }) },
      coach.token,
    );
    expect(noted.status).toBe(201);
    const migrations = await appliedMigrations();
    await stack.stop();
    stack = undefined;

    const dump = join(directory, 'spark.dump');
    await run('pg_dump', ['--format=custom', '--file', dump, database.url]);
    await database.drop();
    const admin = new URL(database.url);
    const name = admin.pathname.slice(1);
    admin.pathname = '/postgres';
    const server = new Client({ connectionString: admin.toString() });
    await server.connect();
    await server.query(`CREATE DATABASE ${name}`);
    await server.end();
    await run('pg_restore', ['--no-owner', '--exit-on-error', '--dbname', database.url, dump]);

    expect(await appliedMigrations()).toEqual(migrations);
    stack = await startInProcessStack({ databaseUrl: database.url, env: { JWT_SECRET: TEST_JWT_SECRET } });
    const leads = (await (await call(`/api/coach/leads?search=${encodeURIComponent(lead)}`, {}, coach.token)).json()) as { items: { email: string }[] };
    expect(leads.items.map((item) => item.email)).toEqual([lead]);
    const sparks = (await (await call('/api/sparks', {}, client.token)).json()) as { items: { note: string | null }[] };
    expect(sparks.items.map((spark) => spark.note)).toEqual(['Morning walk before the backup']);
    const home = (await (await call('/api/progress/me', {}, client.token)).json()) as { pinnedNote: { message: string } | null };
    expect(home.pinnedNote?.message).toBe('Keep the morning walk.');
    expect(
      (await call('/api/leads', { method: 'POST', body: JSON.stringify({ email: `after-restore-${randomUUID().slice(0, 8)}@example.com` }) })).status,
    ).toBe(201);
  }, 120_000);
});
