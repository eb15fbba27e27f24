import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateSentEmails1763800000010 implements MigrationInterface {
  name = 'CreateSentEmails1763800000010';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE notifier.sent_emails (
        idempotency_key text PRIMARY KEY,
        job_name text NOT NULL,
        recipient text NOT NULL,
        status text NOT NULL CHECK (status IN ('sending', 'sent', 'failed')),
        message_id text,
        error text,
        updated_at timestamptz NOT NULL DEFAULT now(),
        sent_at timestamptz
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE notifier.sent_emails`);
  }
}
