import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Until when the run generating a generation holds it: another delivery of its job (one the outbox added again after
 * Redis lost it) waits rather than asking the model a second time. A generation a run gave up on, or one generating
 * when this column came, has none: the next delivery takes it.
 */
export class GenerationClaims1765000000055 implements MigrationInterface {
  name = 'GenerationClaims1765000000055';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE ditl.generations ADD COLUMN claimed_until timestamptz`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE ditl.generations DROP COLUMN claimed_until`);
  }
}
