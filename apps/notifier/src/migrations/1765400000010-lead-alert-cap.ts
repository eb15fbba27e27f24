import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The cap on the team's new-lead alerts (`LeadAlertCap`), in the notifier's own schema: only the notifier's login
 * writes it, and it is restored with the ledger it must agree with. An hour's row is what its decisions lock; a
 * decision per gateway signature of a lead's form, with the address only while a digest may still name it.
 */
export class LeadAlertCap1765400000010 implements MigrationInterface {
  name = 'LeadAlertCap1765400000010';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE notifier.lead_alert_hours (
        window_start timestamptz PRIMARY KEY,
        alerts integer NOT NULL DEFAULT 0,
        closed_at timestamptz
      )`);
    await runner.query(`
      CREATE TABLE notifier.lead_alert_decisions (
        signature text PRIMARY KEY,
        window_start timestamptz NOT NULL,
        decision text NOT NULL CHECK (decision IN ('alert', 'digest')),
        email text,
        role text,
        created_at timestamptz,
        decided_at timestamptz NOT NULL DEFAULT now(),
        CHECK (decision = 'digest' OR email IS NULL)
      )`);
    await runner.query(`CREATE INDEX lead_alert_decisions_hour ON notifier.lead_alert_decisions (window_start, decision, created_at)`);
    await runner.query(`CREATE INDEX lead_alert_decisions_email ON notifier.lead_alert_decisions (lower(email)) WHERE email IS NOT NULL`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE notifier.lead_alert_decisions`);
    await runner.query(`DROP TABLE notifier.lead_alert_hours`);
  }
}
