import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each generation keeps the length of the client's evolution when it was asked for, which its presentation states: a
 * coach may change the length later, and the plan then written still says what it said. Generations asked for before
 * have none, and are planned with the default length.
 */
export class GenerationEvolutionDays1765300000057 implements MigrationInterface {
  name = 'GenerationEvolutionDays1765300000057';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE ditl.generations ADD COLUMN evolution_days integer CHECK (evolution_days BETWEEN 1 AND 365)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE ditl.generations DROP COLUMN evolution_days`);
  }
}
