import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each generation keeps the id the client's device chose for the request that made it, so a try of that request sent
 * again (its answer lost) is answered with it instead of making another: the database refuses a second generation
 * with one client's id. Generations asked for before, and a coach's regenerations, have none.
 */
export class GenerationRequestIds1765700000058 implements MigrationInterface {
  name = 'GenerationRequestIds1765700000058';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE ditl.generations ADD COLUMN request_id uuid`);
    await runner.query(`CREATE UNIQUE INDEX generations_one_per_request ON ditl.generations (user_id, request_id) WHERE request_id IS NOT NULL`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX ditl.generations_one_per_request`);
    await runner.query(`ALTER TABLE ditl.generations DROP COLUMN request_id`);
  }
}
