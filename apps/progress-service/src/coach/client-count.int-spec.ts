import { randomUUID } from 'node:crypto';
import { openMigrated, type ServiceDataSource } from '@spark/persistence';
import { createTestDatabase, type TestDatabase } from '@spark/testing';
import { Client } from 'pg';
import { progressMigrations } from '../migrations';
import { CoachClientsRepository } from './coach-clients.repository';

// The dashboard's client count comes from progress.client_count, kept by triggers. Every step compares it with a
// count of progress.user_progress itself, so a wrong trigger fails here.
describe('the client count kept by trigger (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: ServiceDataSource;
  let clients: CoachClientsRepository;

  const open = (migrations: typeof progressMigrations) => openMigrated({ url: database.url, schema: 'progress', migrations, poolSize: 12 });

  const addClients = (source: ServiceDataSource, howMany: number) =>
    source.query(
      `INSERT INTO progress.user_progress (user_id, email, evolution_start_date, evolution_end_date)
       SELECT gen_random_uuid(), 'client-' || gen_random_uuid() || '@spark.test', current_date, current_date + 90 FROM generate_series(1, $1::int)`,
      [howMany],
    );
  const addClient = async (userId = randomUUID()) => {
    await dataSource.query(
      `INSERT INTO progress.user_progress (user_id, email, evolution_start_date, evolution_end_date) VALUES ($1, $2, current_date, current_date + 90)
       ON CONFLICT (user_id) DO NOTHING`,
      [userId, `${userId}@spark.test`],
    );
    return userId;
  };

  /** The count the dashboard shows, after checking it against the table. */
  const expectExact = async (): Promise<number> => {
    const shown = await clients.count();
    const [{ count }] = await dataSource.query<{ count: number }[]>(`SELECT count(*)::int AS count FROM progress.user_progress`);
    expect(shown).toBe(count);
    return shown;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    // Clients who were there before the migration are counted by its backfill.
    const before = await open(progressMigrations.slice(0, -1));
    await addClients(before, 3);
    await before.destroy();
    dataSource = await open(progressMigrations);
    clients = new CoachClientsRepository(dataSource);
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  it('starts from the clients already there', async () => {
    expect(await expectExact()).toBe(3);
  });

  it('follows clients added one at a time, many at once, and added again', async () => {
    const start = await expectExact();
    const userId = await addClient();
    expect(await expectExact()).toBe(start + 1);
    await addClients(dataSource, 250);
    expect(await expectExact()).toBe(start + 251);
    await addClient(userId);
    expect(await expectExact()).toBe(start + 251);
  });

  it('follows clients removed one at a time and many at once', async () => {
    const start = await expectExact();
    await dataSource.query(`DELETE FROM progress.user_progress WHERE user_id = $1`, [await addClient()]);
    expect(await expectExact()).toBe(start);
    await dataSource.query(`DELETE FROM progress.user_progress WHERE user_id IN (SELECT user_id FROM progress.user_progress LIMIT 100)`);
    expect(await expectExact()).toBe(start - 100);
    await dataSource.query(`DELETE FROM progress.user_progress WHERE false`);
    expect(await expectExact()).toBe(start - 100);
  });

  it('stays exact under concurrent onboardings', async () => {
    const start = await expectExact();
    await Promise.all(Array.from({ length: 40 }, () => addClient()));
    expect(await expectExact()).toBe(start + 40);
  });

  it('lets a statement that adds no client pass while another adds one', async () => {
    const existing = await addClient();
    const adding = new Client({ connectionString: database.url });
    await adding.connect();
    try {
      await adding.query('BEGIN');
      await adding.query(
        `INSERT INTO progress.user_progress (user_id, email, evolution_start_date, evolution_end_date) VALUES ($1, 'new@spark.test', current_date, current_date + 90)`,
        [randomUUID()],
      );
      // The open transaction holds the count's row; an insert that adds nobody must not wait for it.
      await dataSource.transaction(async (manager) => {
        await manager.query(`SET LOCAL lock_timeout = '2s'`);
        await manager.query(
          `INSERT INTO progress.user_progress (user_id, email, evolution_start_date, evolution_end_date) VALUES ($1, 'again@spark.test', current_date, current_date + 90)
           ON CONFLICT (user_id) DO NOTHING`,
          [existing],
        );
      });
      await adding.query('COMMIT');
    } finally {
      await adding.end();
    }
    await expectExact();
  });

  it('empties with the table', async () => {
    await dataSource.query(`TRUNCATE progress.user_progress CASCADE`);
    expect(await expectExact()).toBe(0);
    await addClient();
    expect(await expectExact()).toBe(1);
  });
});
