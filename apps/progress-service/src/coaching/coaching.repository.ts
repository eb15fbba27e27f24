import type { DataSource } from 'typeorm';
import type { SparkRow } from '../sparks/sparks.repository';
import type { CoachingAnswers } from './coaching-facts';

/** A spark of the check-in week with its local day. */
export interface WeekSparkRow extends SparkRow {
  day: string;
}

// The most thumbnails one check-in shows: a week of a client who sparks several times a day.
const WEEK_SPARKS_LIMIT = 60;

/** What the drafts read beyond the client record: the onboarding answers and the week's sparks. */
export class CoachingRepository {
  constructor(private readonly dataSource: DataSource) {}

  async answers(userId: string): Promise<CoachingAnswers | null> {
    const rows: { full_name: string | null; goal: string | null; challenge: string | null }[] = await this.dataSource.query(
      `SELECT data->>'full_name' AS full_name, data->>'transformation_goal' AS goal, data->>'biggest_challenge' AS challenge
       FROM progress.onboarding_data WHERE user_id = $1`,
      [userId],
    );
    const row = rows[0];
    return row ? { fullName: row.full_name ?? '', goal: row.goal ?? '', challenge: row.challenge ?? '' } : null;
  }

  /** The sparks taken from `weekStart` (a local date in `timeZone`) on, newest first. */
  weekSparks(userId: string, timeZone: string, weekStart: string): Promise<WeekSparkRow[]> {
    return this.dataSource.query(
      `SELECT id, client_spark_id, user_id, spark_type, file_key, file_type, note, created_at,
              to_char((created_at AT TIME ZONE $2)::date, 'YYYY-MM-DD') AS day
       FROM progress.sparks
       WHERE user_id = $1 AND created_at >= ($3::date)::timestamp AT TIME ZONE $2
       ORDER BY created_at DESC, id DESC LIMIT $4`,
      [userId, timeZone, weekStart, WEEK_SPARKS_LIMIT],
    );
  }
}
