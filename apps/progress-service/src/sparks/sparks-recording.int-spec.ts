import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { openMigrated, type ServiceDataSource } from '@spark/persistence';
import { createTestDatabase, lockWaiters, type TestDatabase } from '@spark/testing';
import { Client } from 'pg';
import { progressMigrations } from '../migrations';
import { type CounterUpdate, type NewSpark, SparksRepository, StorageFullError } from './sparks.repository';

// The recording reads the progress row, works out the counters, and writes only if the row is still the version it
// read. Here another transaction (a concurrent capture, a coach's setting) holds the row changed but not committed
// while the recording reads, so the recording's write waits for it and then finds a newer row.
describe('recording a spark while another transaction changes the progress row (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: ServiceDataSource;
  let sparks: SparksRepository;
  let other: Client;
  const cycle = { start: '2026-11-01', end: '2026-11-30' };
  const QUOTA = 1_000_000;
  const nextDay: CounterUpdate = (progress) => ({ streakCount: progress.streak_count + 1, lastSparkDate: '2026-11-28' });

  const newSpark = (userId: string, fileBytes = 1_000): NewSpark => ({
    userId,
    email: `${userId}@spark.test`,
    clientSparkId: randomUUID(),
    sparkType: 'photo',
    fileKey: `${userId}/${randomUUID()}.png`,
    fileType: 'image/png',
    fileBytes,
    note: null,
    timeZone: 'UTC',
    takenAt: new Date(),
    localDate: '2026-11-28',
  });
  const stateOf = async (userId: string) => {
    const [row] = await dataSource.query<{ spark_count: number; stored_bytes: string; pause_days_allowance: number; sparks: number }[]>(
      `SELECT spark_count, stored_bytes, pause_days_allowance, (SELECT count(*)::int FROM progress.sparks WHERE user_id = $1) AS sparks
       FROM progress.user_progress WHERE user_id = $1`,
      [userId],
    );
    return row;
  };
  /** Until the recording's write waits for `other`'s lock on the row. */
  const recordingWaits = async () => {
    for (;;) {
      // Not on `other`: inside its open transaction pg_stat_activity would keep showing its first snapshot.
      if ((await lockWaiters(dataSource, 'WITH updated AS')) > 0) return;
      await sleep(5);
    }
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await openMigrated({ url: database.url, schema: 'progress', migrations: progressMigrations, poolSize: 4 });
    sparks = new SparksRepository(dataSource);
    other = new Client({ connectionString: database.url });
    await other.connect();
  });
  afterAll(async () => {
    await other?.end();
    await dataSource?.destroy();
    await database?.drop();
  });

  it('reads again after the other commits, counts the spark once and keeps the other change', async () => {
    const userId = randomUUID();
    await sparks.record(newSpark(userId), cycle, QUOTA, nextDay);
    const before = await stateOf(userId);
    // A coach's setting, changed in a transaction still open while the recording reads.
    await other.query(`BEGIN; UPDATE progress.user_progress SET pause_days_allowance = pause_days_allowance + 1 WHERE user_id = '${userId}'`);
    let reads = 0;
    const recording = sparks.record(newSpark(userId, 500), cycle, QUOTA, (progress) => {
      reads++;
      return nextDay(progress);
    });
    await recordingWaits();
    await other.query('COMMIT');
    const recorded = await recording;

    expect(reads).toBe(2);
    expect(recorded.created).toBe(true);
    const allowance = (before?.pause_days_allowance ?? 0) + 1;
    expect(recorded.progress).toMatchObject({ spark_count: 2, streak_count: 2, pause_days_allowance: allowance });
    expect(await stateOf(userId)).toEqual({ spark_count: 2, stored_bytes: '1500', pause_days_allowance: allowance, sparks: 2 });
  });

  it('answers with the first spark when a capture of the same client id committed while it waited', async () => {
    const userId = randomUUID();
    await sparks.record(newSpark(userId), cycle, QUOTA, nextDay);
    const capture = newSpark(userId);
    // What the other capture's write does: the spark and its counters, in one transaction.
    await other.query(`BEGIN; UPDATE progress.user_progress SET spark_count = spark_count + 1 WHERE user_id = '${userId}';
      INSERT INTO progress.sparks (user_id, client_spark_id, spark_type, file_key, file_type, file_bytes)
      VALUES ('${userId}', '${capture.clientSparkId}', 'photo', 'first.png', 'image/png', 0)`);
    const recording = sparks.record(capture, cycle, QUOTA, nextDay);
    await recordingWaits();
    await other.query('COMMIT');
    const recorded = await recording;

    expect(recorded.created).toBe(false);
    expect(recorded.spark.file_key).toBe('first.png');
    expect(await stateOf(userId)).toMatchObject({ spark_count: 2, sparks: 2 });
  });

  it('refuses the spark when the storage the other committed leaves no room for it', async () => {
    const userId = randomUUID();
    await sparks.record(newSpark(userId, QUOTA / 2), cycle, QUOTA, nextDay);
    await other.query(`BEGIN; UPDATE progress.user_progress SET stored_bytes = stored_bytes + ${QUOTA / 2} WHERE user_id = '${userId}'`);
    const recording = sparks.record(newSpark(userId, 1), cycle, QUOTA, nextDay);
    await recordingWaits();
    await other.query('COMMIT');

    await expect(recording).rejects.toBeInstanceOf(StorageFullError);
    expect(await stateOf(userId)).toMatchObject({ spark_count: 1, stored_bytes: String(QUOTA), sparks: 1 });
  });
});
