import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A client's next reminder follows their zone through `progress.known_time_zone`, like every other calendar
 * computation in a client's zone: a zone PostgreSQL does not know reads as UTC instead of failing the capture that
 * changed it.
 */
export class RemindersFollowKnownZone1765500000032 implements MigrationInterface {
  name = 'RemindersFollowKnownZone1765500000032';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(followTimeZone('progress.known_time_zone(NEW.time_zone)'));
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(followTimeZone('NEW.time_zone'));
  }
}

const followTimeZone = (zone: string) => `
  CREATE OR REPLACE FUNCTION progress.follow_time_zone() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    UPDATE progress.reminder_settings
    SET next_due_at = progress.next_local_occurrence(local_time, ${zone}, now())
    WHERE user_id = NEW.user_id;
    RETURN NEW;
  END $$`;
