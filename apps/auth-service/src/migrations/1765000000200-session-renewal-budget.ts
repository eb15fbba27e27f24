import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each refresh token carries its family's renewal window forward: when the window began and how many renewals it has
 * seen, so a renewal checks the family's budget (`SESSION_RENEWALS`) in the row it spends. A token from before has
 * no window, and its next renewal starts one.
 */
export class SessionRenewalBudget1765000000200 implements MigrationInterface {
  name = 'SessionRenewalBudget1765000000200';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      `ALTER TABLE auth.refresh_tokens ADD COLUMN renewal_window_started_at timestamptz, ADD COLUMN renewals_in_window integer NOT NULL DEFAULT 0`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE auth.refresh_tokens DROP COLUMN renewal_window_started_at, DROP COLUMN renewals_in_window`);
  }
}
