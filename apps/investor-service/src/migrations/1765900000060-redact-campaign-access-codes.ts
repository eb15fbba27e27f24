import type { MigrationInterface, QueryRunner } from 'typeorm';

// `redactAccessCodes` in libs/contracts: the form of `newAccessCode`, in any case.
const ACCESS_CODE = `'SPARK(-[0-9A-Z]{4}){5}'`;
const redacted = (column: string) => `regexp_replace(${column}, ${ACCESS_CODE}, '[access code]', 'gi')`;

/**
 * A campaign's record keeps its text without the access codes in it (the admin's "Send Code" put one there), and its
 * e-mails' jobs seal their text for the notifier: the campaigns and the jobs written before lose their codes here. An
 * unsent job written before fails at the notifier, unsealed (docs/operations.md).
 */
export class RedactCampaignAccessCodes1765900000060 implements MigrationInterface {
  name = 'RedactCampaignAccessCodes1765900000060';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      `UPDATE investor.campaigns SET subject = ${redacted('subject')}, body = ${redacted('body')}
       WHERE subject ~* ${ACCESS_CODE} OR body ~* ${ACCESS_CODE}`,
    );
    // The placeholder holds nothing JSON escapes, so the payload's text stays JSON.
    await runner.query(
      `UPDATE investor.outbox SET payload = ${redacted('payload::text')}::jsonb
       WHERE job_name = 'investor-email' AND payload::text ~* ${ACCESS_CODE}`,
    );
  }

  async down(): Promise<void> {
    // The codes are gone for good; nothing to undo.
  }
}
