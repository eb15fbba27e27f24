import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The addresses of erased accounts, as hashes, with when each was erased: an e-mail queued for one before then (a
 * sign-in link waiting for the SMTP server) is not sent after it. Kept only as long as a queued e-mail can wait.
 */
export class ErasedRecipients1765000000010 implements MigrationInterface {
  name = 'ErasedRecipients1765000000010';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE notifier.erased_recipients (
        address_hash bytea PRIMARY KEY,
        erased_at timestamptz NOT NULL
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE notifier.erased_recipients`);
  }
}
