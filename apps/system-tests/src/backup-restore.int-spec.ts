import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ObjectStorage } from '@spark/storage';
import { createTestDatabase, eventually, startTestS3, TINY_PNG, type TestDatabase, captureSpark } from '@spark/testing';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { replayErasures } from '../../auth-service/src/tooling';
import { createSignedInUser, TEST_JWT_SECRET } from './ditl-auth';
import { type InProcessStack, startInProcessStack } from './in-process-stack';
import { tablesMentioning as tablesMentioningIn } from './tables-mentioning';

const run = promisify(execFile);

/** The runbook's logical backup (docs/operations.md, "Backups"): dump, lose the database, restore, and find the product whole. */
describe('a PostgreSQL backup restored into an empty database', () => {
  let database: TestDatabase;
  let directory: string;
  let stack: InProcessStack | undefined;

  const call = (path: string, init: RequestInit = {}, token?: string) =>
    fetch(`${stack?.baseUrl}${path}`, {
      ...init,
      headers: {
        ...(init.body === undefined || init.body instanceof FormData ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
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

  const dumpDatabase = async () => {
    const dump = join(directory, `spark-${randomUUID().slice(0, 8)}.dump`);
    await run('pg_dump', ['--format=custom', '--file', dump, database.url]);
    return dump;
  };
  /** The runbook's restore: the database lost, created empty under its name, and the dump restored into it. */
  const restoreDatabase = async (dump: string) => {
    await database.drop();
    const admin = new URL(database.url);
    const name = admin.pathname.slice(1);
    admin.pathname = '/postgres';
    const server = new Client({ connectionString: admin.toString() });
    await server.connect();
    await server.query(`CREATE DATABASE ${name}`);
    await server.end();
    await run('pg_restore', ['--no-owner', '--exit-on-error', '--dbname', database.url, dump]);
  };
  const tablesMentioning = (needle: string) => withDb((db) => tablesMentioningIn(db, needle));

  /** Whether `count` deletions are recorded and every one has completed. */
  const deletionsComplete = (count: number) =>
    withDb(async (db) => {
      const { rows } = await db.query<{ completed: boolean }>(`SELECT completed_at IS NOT NULL AS completed FROM auth.account_deletions`);
      return rows.length === count && rows.every((row) => row.completed);
    });

  beforeEach(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    await stack?.stop();
    stack = undefined;
    await database.drop();
  });
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'spark-backup-'));
  });
  afterAll(async () => {
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

    const dump = await dumpDatabase();
    await restoreDatabase(dump);

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
  it('erases again, once the runbook restores a backup, an account erased after the backup was taken', async () => {
    // One bucket for every stack: the bucket outlives the database, as in production.
    const bucket = await startTestS3();
    const start = () => startInProcessStack({ databaseUrl: database.url, withNotifier: true, env: { JWT_SECRET: TEST_JWT_SECRET, ...bucket.env } });
    try {
      stack = await start();
      const email = `leaving-${randomUUID().slice(0, 8)}@example.com`;
      expect((await call('/api/leads', { method: 'POST', body: JSON.stringify({ email }) })).status).toBe(201);
      const client = await withDb((db) => createSignedInUser(db, email));
      const captured = await captureSpark(stack.baseUrl, { authorization: `Bearer ${client.token}` }, { bytes: TINY_PNG, note: 'Evening run' });
      expect(captured.status).toBe(201);
      expect(await tablesMentioning(client.id)).toEqual(
        expect.arrayContaining([expect.stringMatching(/^auth\.users /), expect.stringMatching(/^progress\.sparks /)]),
      );
      const dump = await dumpDatabase();

      // After the backup, the client deletes their account through the e-mailed link, and every part completes.
      expect((await call('/api/me/account-deletion', { method: 'POST' }, client.token)).status).toBe(202);
      const mail = await eventually(
        () => stack?.smtp.messages.find((sent) => sent.to.includes(email) && sent.subject === 'Confirm deleting your Spark account'),
        20_000,
        'the confirmation e-mail',
      );
      const token = /\/account\/delete#token=([\w-]+)/.exec(mail.text)?.[1];
      const confirmed = await call('/api/account-deletion/confirm', { method: 'POST', body: JSON.stringify({ token }) });
      expect(confirmed.status).toBe(200);
      await eventually(() => deletionsComplete(1), 30_000, 'the deletion to complete');
      expect(await tablesMentioning(email)).toEqual([]);
      await stack.stop();
      stack = undefined;

      await restoreDatabase(dump);
      expect(await tablesMentioning(client.id)).not.toEqual([]);
      const replay = async () => {
        const dataSource = await new DataSource({ type: 'postgres', url: database.url }).initialize();
        const storage = new ObjectStorage(bucket.config);
        try {
          return await replayErasures(dataSource, storage);
        } finally {
          await storage.close();
          await dataSource.destroy();
        }
      };
      expect(await replay()).toEqual({ noted: 1, queued: 1 });
      // Run twice (an operator unsure it ran), it queues nothing more.
      expect(await replay()).toEqual({ noted: 1, queued: 0 });
      stack = await start();
      await eventually(() => deletionsComplete(1), 30_000, 'the deletion queued again to complete');
      // Left: the progress and ditl services' day-long notes that the id was erased (docs/data-rights.md).
      expect({ id: await tablesMentioning(client.id), email: await tablesMentioning(email) }).toEqual({
        id: ['ditl.erased_users (1)', 'progress.erased_users (1)'],
        email: [],
      });
    } finally {
      await stack?.stop();
      stack = undefined;
      await bucket.close();
    }
  }, 120_000);
});
