import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateLeads1763800000001 implements MigrationInterface {
  name = 'CreateLeads1763800000001';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE leads.leads (
        id uuid PRIMARY KEY,
        email text NOT NULL,
        role text NOT NULL CHECK (role IN ('client', 'coach', 'investor')),
        full_name text,
        company text,
        interest text,
        approval_status text NOT NULL DEFAULT 'pending' CHECK (approval_status IN ('pending', 'approved', 'rejected')),
        primary_challenge text CHECK (primary_challenge IN ('consistency', 'motivation', 'tracking', 'accountability')),
        user_created boolean NOT NULL DEFAULT false,
        challenge_token_hash bytea,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`CREATE UNIQUE INDEX leads_email_key ON leads.leads (email)`);
    await runner.query(`CREATE UNIQUE INDEX leads_challenge_token_key ON leads.leads (challenge_token_hash)`);
    await runner.query(`CREATE INDEX leads_newest_idx ON leads.leads (created_at DESC, id DESC)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE leads.leads`);
  }
}
