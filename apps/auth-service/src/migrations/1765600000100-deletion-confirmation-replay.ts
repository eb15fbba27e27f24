import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The confirmation a deletion spent stays on its record, as its token's hash, until the deletion completes: a client
 * whose answer was lost confirms again with the same link, and is answered that deletion instead of an invalid link.
 * Unique, so a spent token names one deletion and a second confirmation can never start another.
 */
export class DeletionConfirmationReplay1765600000100 implements MigrationInterface {
  name = 'DeletionConfirmationReplay1765600000100';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE auth.account_deletions ADD COLUMN confirmation_token_hash bytea`);
    await runner.query(
      `CREATE UNIQUE INDEX account_deletions_confirmation_idx ON auth.account_deletions (confirmation_token_hash) WHERE confirmation_token_hash IS NOT NULL`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX auth.account_deletions_confirmation_idx`);
    await runner.query(`ALTER TABLE auth.account_deletions DROP COLUMN confirmation_token_hash`);
  }
}
