import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The clients erased in the last day, by id alone: a Day in the Life request already under way when its client was
 * erased would otherwise record a generation (their answers and address) after the erasure, and e-mail them.
 */
export class ErasedUsers1765000000056 implements MigrationInterface {
  name = 'ErasedUsers1765000000056';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE ditl.erased_users (user_id uuid PRIMARY KEY, erased_at timestamptz NOT NULL DEFAULT now())`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE ditl.erased_users`);
  }
}
