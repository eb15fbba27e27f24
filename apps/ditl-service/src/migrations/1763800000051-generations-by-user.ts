import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The daily budget counts a user's generations of the last 24 hours, whatever their status. */
export class GenerationsByUser1763800000051 implements MigrationInterface {
  name = 'GenerationsByUser1763800000051';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE INDEX generations_user_created_idx ON ditl.generations (user_id, created_at)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX ditl.generations_user_created_idx`);
  }
}
