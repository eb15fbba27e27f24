import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateInvestors1763800000060 implements MigrationInterface {
  name = 'CreateInvestors1763800000060';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE investor.investors (
        id uuid PRIMARY KEY,
        email text NOT NULL,
        interest text,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_email_sent_at timestamptz
      )`);
    await runner.query(`CREATE UNIQUE INDEX investors_email_key ON investor.investors (email)`);
    await runner.query(`CREATE INDEX investors_newest_idx ON investor.investors (created_at DESC, id DESC)`);
    await runner.query(`
      CREATE TABLE investor.deck_access (
        investor_id uuid PRIMARY KEY REFERENCES investor.investors (id) ON DELETE CASCADE,
        access_code text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        accessed_at timestamptz,
        access_count integer NOT NULL DEFAULT 0
      )`);
    await runner.query(`CREATE UNIQUE INDEX deck_access_code_key ON investor.deck_access (access_code)`);
    await runner.query(`
      CREATE TABLE investor.campaigns (
        id uuid PRIMARY KEY,
        subject text NOT NULL,
        body text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    // One row per recipient; its id is also the mail job's id, so outcomes are read back per job.
    await runner.query(`
      CREATE TABLE investor.campaign_deliveries (
        id uuid PRIMARY KEY,
        campaign_id uuid NOT NULL REFERENCES investor.campaigns (id) ON DELETE CASCADE,
        investor_id uuid NOT NULL REFERENCES investor.investors (id) ON DELETE CASCADE,
        email text NOT NULL,
        status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'failed')),
        error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz
      )`);
    await runner.query(`CREATE INDEX campaign_deliveries_campaign_idx ON investor.campaign_deliveries (campaign_id)`);
    await runner.query(`CREATE INDEX campaign_deliveries_queued_idx ON investor.campaign_deliveries (created_at) WHERE status = 'queued'`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE investor.campaign_deliveries, investor.campaigns, investor.deck_access, investor.investors`);
  }
}
