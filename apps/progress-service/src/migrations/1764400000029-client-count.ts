import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The coach dashboard's client count without counting: `progress.client_count` holds one row with the number of rows
 * of `progress.user_progress`, kept exact by statement triggers on insert, delete and truncate. Every leads page and
 * every page of the client list shows the count, and `count(*)` reads the whole table each time, so it grew with the
 * number of clients. Clients are added and removed rarely (onboarding, account deletion), so one row is enough; a
 * statement that adds or removes none leaves it untouched and takes no lock on it.
 */
export class ClientCount1764400000029 implements MigrationInterface {
  name = 'ClientCount1764400000029';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE progress.client_count (
        singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
        count bigint NOT NULL CHECK (count >= 0)
      )`);
    await runner.query(`
      CREATE FUNCTION progress.count_added_clients() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        added_rows bigint := (SELECT count(*) FROM added);
      BEGIN
        IF added_rows > 0 THEN UPDATE progress.client_count SET count = count + added_rows; END IF;
        RETURN NULL;
      END $$`);
    await runner.query(`
      CREATE FUNCTION progress.count_removed_clients() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        removed_rows bigint := (SELECT count(*) FROM removed);
      BEGIN
        IF removed_rows > 0 THEN UPDATE progress.client_count SET count = count - removed_rows; END IF;
        RETURN NULL;
      END $$`);
    // TRUNCATE fires no delete trigger: it empties the count with the table.
    await runner.query(`
      CREATE FUNCTION progress.reset_client_count() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE progress.client_count SET count = 0;
        RETURN NULL;
      END $$`);
    // No client may be added or removed between the triggers' creation and the backfill's count (until this
    // migration commits), or they would be counted twice or never.
    await runner.query(`LOCK TABLE progress.user_progress IN SHARE ROW EXCLUSIVE MODE`);
    await runner.query(`
      CREATE TRIGGER user_progress_count_added AFTER INSERT ON progress.user_progress
      REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION progress.count_added_clients()`);
    await runner.query(`
      CREATE TRIGGER user_progress_count_removed AFTER DELETE ON progress.user_progress
      REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION progress.count_removed_clients()`);
    await runner.query(`
      CREATE TRIGGER user_progress_count_truncated AFTER TRUNCATE ON progress.user_progress
      FOR EACH STATEMENT EXECUTE FUNCTION progress.reset_client_count()`);
    await runner.query(`INSERT INTO progress.client_count (count) SELECT count(*) FROM progress.user_progress`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TRIGGER user_progress_count_truncated ON progress.user_progress`);
    await runner.query(`DROP TRIGGER user_progress_count_removed ON progress.user_progress`);
    await runner.query(`DROP TRIGGER user_progress_count_added ON progress.user_progress`);
    await runner.query(`DROP FUNCTION progress.reset_client_count()`);
    await runner.query(`DROP FUNCTION progress.count_removed_clients()`);
    await runner.query(`DROP FUNCTION progress.count_added_clients()`);
    await runner.query(`DROP TABLE progress.client_count`);
  }
}
