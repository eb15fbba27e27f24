import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Daily reminders (docs/reminders.md): each client's settings and the instant the next one is due. `next_due_at`
 * is the next occurrence of `local_time` in the client's time zone, so the tick reads only due rows by index; it
 * moves on when a reminder is claimed and when the time, or the client's zone (a trigger), changes.
 */
export class Reminders1764400000026 implements MigrationInterface {
  name = 'Reminders1764400000026';

  async up(runner: QueryRunner): Promise<void> {
    // The first instant after `after` at which the wall clock in `zone` shows `at_time` (DST gaps move it forward).
    await runner.query(`
      CREATE FUNCTION progress.next_local_occurrence(at_time time, zone text, after timestamptz) RETURNS timestamptz
      LANGUAGE sql STABLE PARALLEL SAFE AS $$
        SELECT CASE WHEN ((after AT TIME ZONE zone)::date + at_time) AT TIME ZONE zone > after
                    THEN ((after AT TIME ZONE zone)::date + at_time) AT TIME ZONE zone
                    ELSE ((after AT TIME ZONE zone)::date + 1 + at_time) AT TIME ZONE zone END
      $$`);
    // Quiet hours from start to end; a start after the end spans midnight.
    await runner.query(`
      CREATE FUNCTION progress.in_quiet_hours(local time, quiet_start time, quiet_end time) RETURNS boolean
      LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT CASE WHEN quiet_start IS NULL OR quiet_end IS NULL THEN false
                    WHEN quiet_start < quiet_end THEN local >= quiet_start AND local < quiet_end
                    ELSE local >= quiet_start OR local < quiet_end END
      $$`);
    await runner.query(`
      CREATE TABLE progress.reminder_settings (
        user_id uuid PRIMARY KEY REFERENCES progress.user_progress (user_id) ON DELETE CASCADE,
        enabled boolean NOT NULL DEFAULT false,
        local_time time NOT NULL DEFAULT '20:00',
        quiet_start time,
        quiet_end time,
        push_subscription jsonb,
        unsubscribe_token text NOT NULL UNIQUE,
        next_due_at timestamptz NOT NULL,
        last_sent_on date,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`CREATE INDEX reminder_settings_due_idx ON progress.reminder_settings (next_due_at) WHERE enabled`);
    await runner.query(`
      CREATE FUNCTION progress.follow_time_zone() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE progress.reminder_settings
        SET next_due_at = progress.next_local_occurrence(local_time, NEW.time_zone, now())
        WHERE user_id = NEW.user_id;
        RETURN NEW;
      END $$`);
    await runner.query(`
      CREATE TRIGGER user_progress_reminders_follow_zone AFTER UPDATE OF time_zone ON progress.user_progress
      FOR EACH ROW WHEN (OLD.time_zone IS DISTINCT FROM NEW.time_zone) EXECUTE FUNCTION progress.follow_time_zone()`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TRIGGER user_progress_reminders_follow_zone ON progress.user_progress`);
    await runner.query(`DROP FUNCTION progress.follow_time_zone()`);
    await runner.query(`DROP TABLE progress.reminder_settings`);
    await runner.query(`DROP FUNCTION progress.in_quiet_hours(time, time, time)`);
    await runner.query(`DROP FUNCTION progress.next_local_occurrence(time, text, timestamptz)`);
  }
}
