import type { ClientSort } from '@spark/contracts';
import { type KeysetPosition, rowsToRead, type ServiceDataSource } from '@spark/persistence';
import type { ProgressRow } from '../progress/progress-row';
import type { CaptureBucket } from './trends';

export interface ClientRow extends ProgressRow {
  email: string;
  /** The client's local today, and the whole days since the last spark (or the cycle's start). */
  today: string;
  idle_days: number;
  /** Of those idle days, how many were rest or pause days (not counted against the client). */
  covered_idle_days: number;
  resting_today: boolean;
  /** What the list is ordered by: the start date, or the attention score. */
  sort_key: string;
}

export interface NoteRow {
  id: string;
  message: string;
  is_pinned: boolean;
  created_at: Date;
}

export interface ClientChanges {
  transformationGoal?: string | null;
  status?: string;
  customEvolutionDays?: number | null;
}

// A stored zone the database does not know reads as UTC (progress.known_time_zone), so one such row never
// fails a list. The check runs once per distinct zone, not per row: OFFSET 0 keeps the subquery whole, and
// PostgreSQL memoizes it on time_zone. The zone's local today is computed there too, once per zone.
const withKnownZone = `CROSS JOIN LATERAL (
  SELECT known_zone, (now() AT TIME ZONE known_zone)::date AS local_today FROM (SELECT progress.known_time_zone(time_zone) AS known_zone) zone OFFSET 0
) zone_check`;
const localToday = `local_today`;
const idleDays = `(${localToday} - coalesce(last_spark_date, evolution_start_date))`;

/**
 * The rest and pause days (docs/streaks.md) after `after` up to and including `through` of the client row `row`
 * (a table alias: the pause days' subquery must name it): the rest weekdays by arithmetic, the pause days by the
 * primary key, a pause day on a rest day once; a client who never paused skips that lookup (one hashed set of the
 * clients who did, built once per query). Inline SQL rather than a SQL function: PostgreSQL never inlines a
 * function holding a subquery, which made the attention sort several times slower (figures in docs/streaks.md).
 */
function restDaysBetween(row: string, after: string, through: string): string {
  const restWeekdayOn = (day: string) =>
    `(CASE WHEN ${row}.rest_weekday_from IS NULL OR ${day} >= ${row}.rest_weekday_from THEN ${row}.rest_weekday ELSE ${row}.earlier_rest_weekday END)`;
  return `(progress.rest_weekdays_between(${row}.rest_weekday, ${row}.rest_weekday_from, ${row}.earlier_rest_weekday, ${after}, ${through})
    + (SELECT count(*)::int FROM progress.pause_days p WHERE ${row}.user_id IN (SELECT user_id FROM progress.pause_days) AND p.user_id = ${row}.user_id
       AND p.pause_date > ${after} AND p.pause_date <= ${through}
       AND extract(dow FROM p.pause_date)::int IS DISTINCT FROM ${restWeekdayOn('p.pause_date')}))`;
}
const coveredIdleDays = (row: string) => restDaysBetween(row, `coalesce(${row}.last_spark_date, ${row}.evolution_start_date)`, localToday);

// An active client's attention score: the days without a spark that were not rest or pause days.
const attentionScore = `(${idleDays} - ${coveredIdleDays('user_progress')})`;
const anchor = `coalesce(last_spark_date, evolution_start_date)`;
// No zone PostgreSQL and the contract both accept is a whole day ahead of UTC, so no client's local today is later.
const latestLocalToday = `((now() AT TIME ZONE 'UTC')::date + 1)`;

// Read from the row source `row` joined `withKnownZone`.
const columnsOf = (row: string) => `user_id, email, full_name, transformation_goal, spark_count, streak_count, evolution_number,
  to_char(evolution_start_date, 'YYYY-MM-DD') AS evolution_start_date, to_char(evolution_end_date, 'YYYY-MM-DD') AS evolution_end_date,
  status, custom_evolution_days, to_char(last_spark_date, 'YYYY-MM-DD') AS last_spark_date, known_zone AS time_zone,
  rest_weekday, to_char(rest_weekday_from, 'YYYY-MM-DD') AS rest_weekday_from, earlier_rest_weekday, pause_days_allowance, to_char(${localToday}, 'YYYY-MM-DD') AS today, ${idleDays} AS idle_days,
  ${coveredIdleDays(row)} AS covered_idle_days, ${restDaysBetween(row, `${localToday} - 1`, localToday)} > 0 AS resting_today`;

/** The coach's reads and edits of client records; sparks and notes tables belong to their features. */
export class CoachClientsRepository {
  constructor(private readonly dataSource: ServiceDataSource) {}

  list(sort: ClientSort, limit: number, after?: KeysetPosition): Promise<ClientRow[]> {
    return sort === 'attention' ? this.byAttention(limit, after) : this.newestFirst(limit, after);
  }

  private newestFirst(limit: number, after?: KeysetPosition): Promise<ClientRow[]> {
    const rows = rowsToRead(limit);
    const parameters = after ? [after.key, after.id] : [];
    const condition = after ? `WHERE (evolution_start_date, user_id) < ($1::date, $2::uuid)` : '';
    // The page is chosen on the sort key alone; the output columns (time zone arithmetic, to_char) are computed
    // for its rows only. Prepared: planning this query costs about as much as running it.
    return this.dataSource.preparedQuery<ClientRow>(
      `coach-clients-by-newest${after ? '-after' : ''}-${rows}`,
      `SELECT ${columnsOf('page')}, to_char(page.evolution_start_date, 'YYYY-MM-DD') AS sort_key FROM (
         SELECT * FROM progress.user_progress ${withKnownZone} ${condition}
         ORDER BY evolution_start_date DESC, user_id DESC LIMIT ${rows}
       ) page
       ORDER BY page.evolution_start_date DESC, page.user_id DESC`,
      parameters,
    );
  }

  /**
   * Who needs attention first, without scoring every client: a client's score is at most the days from their anchor
   * (their last spark, or the cycle's start) to the latest local today anywhere. The first page's worth of active
   * clients by anchor (an index) gives a score the page's last row reaches at least; only clients whose bound reaches
   * it are scored and sorted. Paused and completed clients (score -1) follow, the highest id first.
   */
  private byAttention(limit: number, after?: KeysetPosition): Promise<ClientRow[]> {
    const rows = rowsToRead(limit);
    const parameters = after ? [after.key, after.id] : [];
    const onPage = after ? `(sort_key, user_id) < ($1::integer, $2::uuid)` : 'true';
    const scored = `SELECT *, ${attentionScore} AS sort_key FROM progress.user_progress ${withKnownZone} WHERE status = 'active'`;
    return this.dataSource.preparedQuery<ClientRow>(
      `coach-clients-by-attention${after ? '-after' : ''}-${rows}`,
      `WITH floor AS (
         SELECT CASE WHEN count(*) = ${rows} THEN min(sort_key) END AS score FROM (
           SELECT sort_key FROM (${scored} ORDER BY ${anchor}, user_id) active WHERE ${onPage} LIMIT ${rows}
         ) first_by_anchor
       )
       SELECT ${columnsOf('page')}, page.sort_key::text AS sort_key FROM (
         (SELECT * FROM (${scored} AND ${anchor} <= coalesce(${latestLocalToday} - (SELECT score FROM floor), 'infinity')) active WHERE ${onPage})
         UNION ALL
         (SELECT * FROM (SELECT *, -1 AS sort_key FROM progress.user_progress ${withKnownZone} WHERE status <> 'active') resting
          WHERE ${onPage} ORDER BY user_id DESC LIMIT ${rows})
         ORDER BY sort_key DESC, user_id DESC LIMIT ${rows}
       ) page
       ORDER BY page.sort_key DESC, page.user_id DESC`,
      parameters,
    );
  }

  /** Every client, as `progress.client_count` keeps it (a trigger on `user_progress`), without reading them. */
  async count(): Promise<number> {
    const rows = await this.dataSource.preparedQuery<{ count: string }>('coach-clients-count', `SELECT count FROM progress.client_count`, []);
    return Number(rows[0]?.count ?? 0);
  }

  async find(userId: string): Promise<ClientRow | undefined> {
    const rows: ClientRow[] = await this.dataSource.query(
      `SELECT ${columnsOf('user_progress')}, '' AS sort_key FROM progress.user_progress ${withKnownZone} WHERE user_id = $1`,
      [userId],
    );
    return rows[0];
  }

  /** Changing the cycle's length moves its end date with it; the start stays. */
  async update(userId: string, changes: ClientChanges): Promise<ClientRow | undefined> {
    const rows: ClientRow[] = await this.dataSource.query(
      `WITH updated AS (UPDATE progress.user_progress SET
         transformation_goal = CASE WHEN $2 THEN $3 ELSE transformation_goal END,
         status = coalesce($4, status),
         custom_evolution_days = CASE WHEN $5 THEN $6::integer ELSE custom_evolution_days END,
         evolution_end_date = CASE WHEN $5 THEN evolution_start_date + coalesce($6::integer, 90) ELSE evolution_end_date END,
         updated_at = now()
       WHERE user_id = $1 RETURNING *)
       SELECT ${columnsOf('updated')}, '' AS sort_key FROM updated ${withKnownZone}`,
      [
        userId,
        changes.transformationGoal !== undefined,
        changes.transformationGoal ?? null,
        changes.status ?? null,
        changes.customEvolutionDays !== undefined,
        changes.customEvolutionDays ?? null,
      ],
    );
    return rows[0];
  }

  /** The cycle's captures per local day and hour, for the trends. */
  captureBuckets(userId: string, timeZone: string, cycleStart: string): Promise<CaptureBucket[]> {
    return this.dataSource.query(
      `SELECT to_char((created_at AT TIME ZONE $2)::date, 'YYYY-MM-DD') AS day,
              extract(hour FROM created_at AT TIME ZONE $2)::int AS hour, count(*)::int AS count
       FROM progress.sparks
       WHERE user_id = $1 AND created_at >= ($3::date)::timestamp AT TIME ZONE $2
       GROUP BY 1, 2`,
      [userId, timeZone, cycleStart],
    );
  }

  nudges(userId: string): Promise<NoteRow[]> {
    return this.dataSource.query(`SELECT id, message, is_pinned, created_at FROM progress.coach_notes WHERE user_id = $1 ORDER BY created_at DESC LIMIT 20`, [
      userId,
    ]);
  }

  async presetEvolution(email: string, customEvolutionDays: number): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO progress.evolution_presets (email, custom_evolution_days) VALUES ($1, $2)
       ON CONFLICT (email) DO UPDATE SET custom_evolution_days = EXCLUDED.custom_evolution_days`,
      [email, customEvolutionDays],
    );
  }
}
