import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The client's weekly rest day (0 = Sunday … 6, empty for none) with the day it applies from and the one
 * before it (a rest day never covers a day already missed), the pause days the coach allows per
 * 14-day window (default 2), and the pause days taken, one row per local calendar date (docs/streaks.md).
 */
export class RestAndPauseDays1763800000025 implements MigrationInterface {
  name = 'RestAndPauseDays1763800000025';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE progress.user_progress
      ADD COLUMN rest_weekday smallint CHECK (rest_weekday BETWEEN 0 AND 6),
      ADD COLUMN rest_weekday_from date,
      ADD COLUMN earlier_rest_weekday smallint CHECK (earlier_rest_weekday BETWEEN 0 AND 6),
      ADD COLUMN pause_days_allowance smallint NOT NULL DEFAULT 2 CHECK (pause_days_allowance BETWEEN 0 AND 14)`);
    await runner.query(`
      CREATE TABLE progress.pause_days (
        user_id uuid NOT NULL REFERENCES progress.user_progress (user_id) ON DELETE CASCADE,
        pause_date date NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, pause_date)
      )`);
    // How many days after $2 up to and including $3 fall on weekday $1 (0 = Sunday), by arithmetic.
    await runner.query(`
      CREATE FUNCTION progress.weekdays_between(smallint, date, date) RETURNS integer LANGUAGE sql IMMUTABLE AS $$
        SELECT CASE WHEN $1 IS NULL OR $3 <= $2 THEN 0
                    ELSE (($3 - $2) - (($1 - (extract(dow FROM $2)::int + 1) % 7 + 7) % 7) + 6) / 7 END
      $$`);
    // How many days after $4 up to and including $5 were rest days: weekday $1 from $2 on, weekday $3 before it.
    // No subquery, so PostgreSQL inlines it (pause days are counted by the caller, coach-clients.repository.ts).
    await runner.query(`
      CREATE FUNCTION progress.rest_weekdays_between(smallint, date, smallint, date, date) RETURNS integer LANGUAGE sql IMMUTABLE AS $$
        SELECT CASE WHEN $2 IS NULL THEN progress.weekdays_between($1, $4, $5)
                    ELSE progress.weekdays_between($3, $4, least($5, $2 - 1)) + progress.weekdays_between($1, greatest($4, $2 - 1), $5) END
      $$`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP FUNCTION progress.rest_weekdays_between(smallint, date, smallint, date, date)`);
    await runner.query(`DROP FUNCTION progress.weekdays_between(smallint, date, date)`);
    await runner.query(`DROP TABLE progress.pause_days`);
    await runner.query(
      `ALTER TABLE progress.user_progress DROP COLUMN pause_days_allowance, DROP COLUMN earlier_rest_weekday, DROP COLUMN rest_weekday_from, DROP COLUMN rest_weekday`,
    );
  }
}
