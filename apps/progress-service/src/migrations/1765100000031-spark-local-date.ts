import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The local date each spark counts for, as its capture's time zone dated it, so the streak can be counted again when
 * a day arrives after a later one. Sparks recorded before it read as `created_at` in the client's stored zone.
 */
export class SparkLocalDate1765100000031 implements MigrationInterface {
  name = 'SparkLocalDate1765100000031';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE progress.sparks ADD COLUMN local_date date`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE progress.sparks DROP COLUMN local_date`);
  }
}
