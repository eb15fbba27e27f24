import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every audit event recorded looks for an unfinished deletion of its actor or target, and the audit log's trigger
 * for one of the entry it changes: the deletion records are kept for good, the unfinished ones are a handful.
 */
export class UnfinishedDeletionsIndex1765000000320 implements MigrationInterface {
  name = 'UnfinishedDeletionsIndex1765000000320';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE INDEX account_deletions_unfinished_idx ON auth.account_deletions (user_id, email) WHERE completed_at IS NULL`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX auth.account_deletions_unfinished_idx`);
  }
}
