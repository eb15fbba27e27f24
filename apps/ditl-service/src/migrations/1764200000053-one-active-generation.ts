import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * At most one generation per client is queued or generating: the database refuses a second. Older duplicates
 * left by earlier code are marked failed first, the newest of each client kept.
 */
export class OneActiveGeneration1764200000053 implements MigrationInterface {
  name = 'OneActiveGeneration1764200000053';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      UPDATE ditl.generations older SET status = 'failed', error = 'Superseded by a newer request', updated_at = now()
      WHERE older.status IN ('queued', 'generating') AND EXISTS (
        SELECT 1 FROM ditl.generations newer
        WHERE newer.user_id = older.user_id AND newer.status IN ('queued', 'generating') AND (newer.created_at, newer.id) > (older.created_at, older.id)
      )`);
    await runner.query(`CREATE UNIQUE INDEX generations_one_active_per_user ON ditl.generations (user_id) WHERE status IN ('queued', 'generating')`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX ditl.generations_one_active_per_user`);
  }
}
