import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The size of each spark's stored file, and each client's total kept on the progress row (which every
 * capture already locks), so the storage quota is checked without summing a client's sparks.
 * Sparks recorded before this migration count as 0 bytes: their sizes are only in S3, which this
 * service does not reach (docs/decisions.md, "Storage quota").
 */
export class SparkFileSizes1763800000024 implements MigrationInterface {
  name = 'SparkFileSizes1763800000024';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE progress.sparks ADD COLUMN file_bytes bigint NOT NULL DEFAULT 0 CHECK (file_bytes >= 0)`);
    await runner.query(`ALTER TABLE progress.user_progress ADD COLUMN stored_bytes bigint NOT NULL DEFAULT 0 CHECK (stored_bytes >= 0)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE progress.user_progress DROP COLUMN stored_bytes`);
    await runner.query(`ALTER TABLE progress.sparks DROP COLUMN file_bytes`);
  }
}
