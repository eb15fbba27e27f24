import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The client's weekly rest day (0 = Sunday … 6, empty for none), the pause days the coach allows per
 * 14-day window (default 2), and the pause days taken, one row per local calendar date (docs/streaks.md).
 */
export class RestAndPauseDays1763800000025 implements MigrationInterface {
  name = 'RestAndPauseDays1763800000025';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE progress.user_progress
      ADD COLUMN rest_weekday smallint CHECK (rest_weekday BETWEEN 0 AND 6),
      ADD COLUMN pause_days_allowance smallint NOT NULL DEFAULT 2 CHECK (pause_days_allowance BETWEEN 0 AND 14)`);
    await runner.query(`
      CREATE TABLE progress.pause_days (
        user_id uuid NOT NULL REFERENCES progress.user_progress (user_id) ON DELETE CASCADE,
        pause_date date NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, pause_date)
      )`);
    // How many days after $3 up to and including $4 were the client's rest ($2 = weekday) or pause days: the
    // days the attention ordering does not count as idle. A pause day on the rest weekday counts once.
    await runner.query(`
      CREATE FUNCTION progress.rest_days_between(uuid, smallint, date, date) RETURNS integer LANGUAGE sql STABLE AS $$
        SELECT CASE WHEN $2 IS NULL OR $4 <= $3 THEN 0
                    ELSE (($4 - $3) - (($2 - (extract(dow FROM $3)::int + 1) % 7 + 7) % 7) + 6) / 7 END
             + (SELECT count(*)::int FROM progress.pause_days p
                WHERE p.user_id = $1 AND p.pause_date > $3 AND p.pause_date <= $4
                  AND ($2 IS NULL OR extract(dow FROM p.pause_date)::int <> $2))
      $$`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP FUNCTION progress.rest_days_between(uuid, smallint, date, date)`);
    await runner.query(`DROP TABLE progress.pause_days`);
    await runner.query(`ALTER TABLE progress.user_progress DROP COLUMN pause_days_allowance, DROP COLUMN rest_weekday`);
  }
}
