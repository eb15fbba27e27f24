import type { DataSource } from 'typeorm';
import { sparkDateSql } from '../sparks/sparks.repository';

export interface ExportSpark {
  id: string;
  spark_type: string;
  file_key: string;
  file_type: string;
  note: string | null;
  created_at: string;
  /** The local date the spark counted for in the streak. */
  counted_on: string;
}

/** Sparks are read a page at a time, so a client with thousands of them never sits in memory at once. */
const SPARK_PAGE = 200;

/** What the progress schema holds about one client, as the export writes it. Coaches' private notes are never read here. */
export class ExportRepository {
  constructor(private readonly dataSource: DataSource) {}

  async progress(userId: string): Promise<Record<string, unknown> | undefined> {
    const rows = (await this.dataSource.query(
      `SELECT user_id, email, full_name, transformation_goal, spark_count, streak_count, evolution_number,
              evolution_start_date::text, evolution_end_date::text, status, custom_evolution_days, last_spark_date::text,
              time_zone, rest_weekday, pause_days_allowance, created_at
         FROM progress.user_progress WHERE user_id = $1`,
      [userId],
    )) as Record<string, unknown>[];
    return rows[0];
  }

  /**
   * The reminder settings, with the push device named by its endpoint alone: its keys and the unsubscribe token are
   * secrets that would let whoever holds the archive push to the device or turn the reminders off.
   */
  async reminders(userId: string): Promise<Record<string, unknown> | null> {
    const rows = (await this.dataSource.query(
      `SELECT enabled, to_char(local_time, 'HH24:MI') AS "localTime",
              CASE WHEN quiet_start IS NULL THEN NULL
                   ELSE json_build_object('start', to_char(quiet_start, 'HH24:MI'), 'end', to_char(quiet_end, 'HH24:MI')) END AS "quietHours",
              push_subscription->>'endpoint' AS "pushDevice", last_sent_on::text AS "lastSentOn", updated_at AS "updatedAt"
         FROM progress.reminder_settings WHERE user_id = $1`,
      [userId],
    )) as Record<string, unknown>[];
    return rows[0] ?? null;
  }

  async onboarding(userId: string): Promise<{ data: unknown; completed_at: string } | undefined> {
    const rows = (await this.dataSource.query(`SELECT data, completed_at FROM progress.onboarding_data WHERE user_id = $1`, [userId])) as {
      data: unknown;
      completed_at: string;
    }[];
    return rows[0];
  }

  coachNotes(userId: string): Promise<Record<string, unknown>[]> {
    return this.dataSource.query(`SELECT id, message, is_pinned, created_at FROM progress.coach_notes WHERE user_id = $1 ORDER BY created_at, id`, [userId]);
  }

  /** One row per day with sparks, each on the day it counted for (before that was kept: the client's zone), and the pause days taken. */
  streakDays(userId: string): Promise<{ day: string; sparks: number; pause_day: boolean }[]> {
    return this.dataSource.query(
      `WITH zone AS (SELECT time_zone FROM progress.user_progress WHERE user_id = $1),
            spark_days AS (
              SELECT ${sparkDateSql('s', `coalesce((SELECT time_zone FROM zone), 'UTC')`)} AS day, count(*)::int AS sparks
                FROM progress.sparks s WHERE s.user_id = $1 GROUP BY 1),
            pauses AS (SELECT pause_date AS day FROM progress.pause_days WHERE user_id = $1)
       SELECT coalesce(d.day, p.day)::text AS day, coalesce(d.sparks, 0) AS sparks, p.day IS NOT NULL AS pause_day
         FROM spark_days d FULL JOIN pauses p ON p.day = d.day
        ORDER BY 1`,
      [userId],
    );
  }

  /** Oldest first, keyset on (created_at, id). */
  async *sparks(userId: string): AsyncGenerator<ExportSpark> {
    let after: { created_at: string; id: string } | undefined;
    for (;;) {
      const page = (await this.dataSource.query(
        `SELECT id, spark_type, file_key, file_type, note, to_json(created_at)#>>'{}' AS created_at,
                to_char(${sparkDateSql('s', `coalesce((SELECT time_zone FROM progress.user_progress WHERE user_id = $1), 'UTC')`)}, 'YYYY-MM-DD') AS counted_on
           FROM progress.sparks s
          WHERE user_id = $1 AND ($2::timestamptz IS NULL OR (created_at, id) > ($2::timestamptz, $3::uuid))
          ORDER BY created_at, id LIMIT ${SPARK_PAGE}`,
        [userId, after?.created_at ?? null, after?.id ?? null],
      )) as ExportSpark[];
      yield* page;
      if (page.length < SPARK_PAGE) return;
      after = page[page.length - 1];
    }
  }
}
