import type { Spark, SparkType } from '@spark/contracts';
import { decodeCursor, type Keyed, pageOf, positionOfRow, type ServiceDataSource } from '@spark/persistence';
import type { PoolClient } from 'pg';
import { accountErased } from '@spark/service-runtime';
import { erasureLockSql, notErasedSql } from '../erasure/progress-erasure';
import { type ProgressRow, progressColumns } from '../progress/progress-row';

export interface SparkRow {
  id: string;
  client_spark_id: string;
  user_id: string;
  spark_type: SparkType;
  file_key: string;
  file_type: string;
  note: string | null;
  created_at: Date;
}

export interface NewSpark {
  userId: string;
  email: string;
  clientSparkId: string;
  sparkType: SparkType;
  fileKey: string;
  fileType: string;
  fileBytes: number;
  note: string | null;
  timeZone: string;
  takenAt: Date;
  /** The local date it counts for, in `timeZone`. */
  localDate: string;
}

/** The capture would take the client's stored bytes past the quota; nothing was written. */
export class StorageFullError extends Error {
  constructor(readonly storedBytes: number) {
    super('storage quota reached');
  }
}

/** The progress row and the pause days taken since the last spark, which the streak steps over. */
export type ProgressSinceLastSpark = ProgressRow & { pause_days_since: string[] };
/** Every day the client sparked and every pause day they took, read when a spark is dated before the last one. */
export interface SparkHistory {
  sparkedDays: string[];
  pauseDays: string[];
}
/**
 * What the service decides from the progress row as read, with the client's history when the spark is dated before
 * the last one; it runs again if the row changed before the write.
 */
export type CounterUpdate = (progress: ProgressSinceLastSpark, history?: SparkHistory) => { streakCount: number; lastSparkDate: string | null };

const sparkColumns = 'id, client_spark_id, user_id, spark_type, file_key, file_type, note, created_at';

// The progress row as the capture found it: its version (`xmin`, which every update of the row changes), the
// client's stored bytes, the pause days since the last spark, and the spark if this client id was recorded before.
const readStatement = {
  name: 'progress.progress-for-spark',
  text: `SELECT ${progressColumns}, stored_bytes, xmin::text AS version,
      ARRAY(SELECT to_char(pause_date, 'YYYY-MM-DD') FROM progress.pause_days p WHERE p.user_id = $1 AND p.pause_date > user_progress.last_spark_date) AS pause_days_since,
      (SELECT to_jsonb(s) FROM (SELECT ${sparkColumns} FROM progress.sparks WHERE user_id = $1 AND client_spark_id = $2) s) AS recorded
    FROM progress.user_progress WHERE user_id = $1`,
};
type ReadProgress = ProgressSinceLastSpark & { stored_bytes: string; version: string; recorded: SparkJson | null };
/** A spark row as `to_jsonb` gives it: the timestamp as ISO text. */
type SparkJson = Omit<SparkRow, 'created_at'> & { created_at: string };

// Moves the counters and inserts the spark only if the progress row is still the version read (`$11`): a row
// changed meanwhile (another capture of this client, a setting) updates nothing, so nothing is inserted either.
// An UPDATE that waits for another transaction's lock checks the version again on the row that transaction left.
const recordStatement = {
  name: 'progress.record-spark',
  text: `WITH updated AS (
      UPDATE progress.user_progress
      SET spark_count = spark_count + 1, stored_bytes = stored_bytes + $10, streak_count = $7, last_spark_date = $8, time_zone = $9, updated_at = now()
      WHERE user_id = $1 AND xmin = $11::xid RETURNING ${progressColumns}
    ), inserted AS (
      INSERT INTO progress.sparks (user_id, client_spark_id, spark_type, file_key, file_type, note, file_bytes, created_at, local_date)
      SELECT $1, $2, $3, $4, $5, $6, $10, $12, $13 FROM updated RETURNING ${sparkColumns}
    )
    SELECT inserted.*, (SELECT to_jsonb(updated) FROM updated) AS progress FROM inserted`,
};

/**
 * A spark's local date in SQL: the day it counted for, or, for a spark recorded before that was kept, its time in the
 * client's stored zone (`zone`, an SQL expression; a zone the database does not know reads as UTC).
 */
export const sparkDateSql = (spark: string, zone: string) =>
  `coalesce(${spark}.local_date, (${spark}.created_at AT TIME ZONE progress.known_time_zone(${zone}))::date)`;

const historyStatement = {
  name: 'progress.spark-history',
  text: `SELECT
      ARRAY(SELECT DISTINCT to_char(${sparkDateSql('s', '$2')}, 'YYYY-MM-DD') FROM progress.sparks s WHERE s.user_id = $1) AS "sparkedDays",
      ARRAY(SELECT to_char(pause_date, 'YYYY-MM-DD') FROM progress.pause_days WHERE user_id = $1) AS "pauseDays"`,
};

/** A progress row that keeps changing under a capture this many times in a row is a fault, not a race. */
const MAX_RECORD_ATTEMPTS = 50;

export const toSpark = (row: SparkRow): Spark => ({
  id: row.id,
  clientSparkId: row.client_spark_id,
  userId: row.user_id,
  sparkType: row.spark_type,
  fileKey: row.file_key,
  fileType: row.file_type,
  note: row.note,
  createdAt: row.created_at.toISOString(),
});

export class SparksRepository {
  constructor(private readonly dataSource: ServiceDataSource) {}

  /**
   * Records the spark and moves the counters in one statement, guarded by the version of the progress row read just
   * before: when another capture of the same client (or any change to its row) came in between, the statement
   * changes nothing and the capture reads and tries again, so concurrent captures of one client are counted one by
   * one and none is lost. A client id seen before returns the first spark and leaves the counters alone. A new spark
   * whose file would take the client past `quotaBytes` throws `StorageFullError`; since the write needs the row as
   * read, concurrent captures cannot together pass it. Two round trips, each its own transaction: no row lock is
   * held across the service's own work, and no BEGIN or COMMIT travels on its own (docs/decisions.md). A spark dated
   * before the last one also reads the client's history; every spark recorded meanwhile changes the progress row, so
   * the guard covers that read too.
   */
  async record(spark: NewSpark, evolutionDays: { start: string; end: string }, quotaBytes: number, update: CounterUpdate) {
    const runner = this.dataSource.createQueryRunner();
    const client = (await runner.connect()) as PoolClient;
    try {
      for (let attempt = 1; attempt <= MAX_RECORD_ATTEMPTS; attempt++) {
        const { stored_bytes: storedBytes, version, recorded, ...progress } = await this.readProgress(client, spark, evolutionDays);
        // A retry of a spark already recorded is answered with it, whatever the storage.
        if (recorded) return { spark: { ...recorded, created_at: new Date(recorded.created_at) }, created: false, progress };
        if (Number(storedBytes) + spark.fileBytes > quotaBytes) throw new StorageFullError(Number(storedBytes));
        const datedEarlier = progress.last_spark_date !== null && spark.localDate < progress.last_spark_date;
        const history = datedEarlier
          ? (await client.query<SparkHistory>({ ...historyStatement, values: [spark.userId, progress.time_zone] })).rows[0]
          : undefined;
        const next = update(progress, history);
        const values = [
          spark.userId,
          spark.clientSparkId,
          spark.sparkType,
          spark.fileKey,
          spark.fileType,
          spark.note,
          next.streakCount,
          next.lastSparkDate,
          spark.timeZone,
          spark.fileBytes,
          version,
          spark.takenAt,
          spark.localDate,
        ];
        const [row] = (await client.query<SparkRow & { progress: ProgressRow }>({ ...recordStatement, values })).rows;
        if (row) {
          const { progress: counted, ...inserted } = row;
          return { spark: inserted, created: true, progress: counted };
        }
      }
      throw new Error(`the progress row of ${spark.userId} kept changing under ${MAX_RECORD_ATTEMPTS} attempts to record a spark`);
    } finally {
      await runner.release();
    }
  }

  // A capture before the progress row exists (onboarding still in flight) starts one rather than failing, unless its
  // client was erased while it was under way. Under the erasure's lock, so the row either commits before the client is
  // marked erased, and the erasure takes it, or is never written.
  private async readProgress(client: PoolClient, spark: NewSpark, evolution: { start: string; end: string }): Promise<ReadProgress> {
    const values = [spark.userId, spark.clientSparkId];
    const read = await client.query<ReadProgress>({ ...readStatement, values });
    if (read.rows[0]) return read.rows[0];
    try {
      await client.query('BEGIN');
      await client.query(erasureLockSql, [spark.userId]);
      await client.query(
        `INSERT INTO progress.user_progress (user_id, email, evolution_start_date, evolution_end_date, time_zone)
         SELECT $1, $2, $3, $4, $5 WHERE ${notErasedSql} ON CONFLICT (user_id) DO NOTHING`,
        [spark.userId, spark.email, evolution.start, evolution.end, spark.timeZone],
      );
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
    const started = (await client.query<ReadProgress>({ ...readStatement, values })).rows[0];
    if (!started) throw accountErased();
    return started;
  }

  /** The spark this capture recorded before, with the client's progress, if it was. */
  async findRecorded(userId: string, clientSparkId: string): Promise<{ spark: SparkRow; progress: ProgressRow } | undefined> {
    const rows: (SparkRow & { progress: ProgressRow })[] = await this.dataSource.query(
      `SELECT ${sparkColumns}, (SELECT to_jsonb(p) FROM (SELECT ${progressColumns} FROM progress.user_progress WHERE user_id = $1) p) AS progress
       FROM progress.sparks WHERE user_id = $1 AND client_spark_id = $2`,
      [userId, clientSparkId],
    );
    if (!rows[0]) return undefined;
    const { progress, ...spark } = rows[0];
    return { spark, progress };
  }

  /** What the client's sparks take in storage (0 before the first), and what this capture's file takes if it was recorded before (else 0). */
  async storageBefore(userId: string, clientSparkId: string): Promise<{ storedBytes: number; recordedBytes: number }> {
    const [row] = await this.dataSource.preparedQuery<{ stored_bytes: string | null; recorded_bytes: string | null }>(
      'progress.storage-before-upload',
      `SELECT (SELECT stored_bytes FROM progress.user_progress WHERE user_id = $1) AS stored_bytes,
              (SELECT file_bytes FROM progress.sparks WHERE user_id = $1 AND client_spark_id = $2) AS recorded_bytes`,
      [userId, clientSparkId],
    );
    return { storedBytes: Number(row?.stored_bytes ?? 0), recordedBytes: Number(row?.recorded_bytes ?? 0) };
  }

  /** `ownerId` narrows the lookup to one user's sparks: someone else's id is simply not found. */
  async find(sparkId: string, ownerId?: string): Promise<SparkRow | undefined> {
    const rows: SparkRow[] = await this.dataSource.query(`SELECT ${sparkColumns} FROM progress.sparks WHERE id = $1 AND ($2::uuid IS NULL OR user_id = $2)`, [
      sparkId,
      ownerId ?? null,
    ]);
    return rows[0];
  }

  /** Newest first, keyset-paginated on (created_at, id). */
  async list(userId: string, limit: number, cursor?: string): Promise<{ rows: SparkRow[]; nextCursor: string | null }> {
    const after = decodeCursor(cursor);
    const rows: Keyed<SparkRow>[] = await this.dataSource.query(
      `SELECT ${sparkColumns}, created_at::text AS cursor_at FROM progress.sparks
       WHERE user_id = $1 AND ($2::timestamptz IS NULL OR (created_at, id) < ($2, $3::uuid))
       ORDER BY created_at DESC, id DESC LIMIT $4`,
      [userId, after?.key ?? null, after?.id ?? null, limit + 1],
    );
    const page = pageOf(rows, limit, positionOfRow);
    return { rows: page.items, nextCursor: page.nextCursor };
  }
}
