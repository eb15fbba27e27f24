import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the coach dashboard reads: every list page and counter is an index scan over non-investor
 * leads, and the approval claim that makes approve/resend run the invite exactly once.
 */
export class CoachLeadIndexes1763800000002 implements MigrationInterface {
  name = 'CoachLeadIndexes1763800000002';

  async up(runner: QueryRunner): Promise<void> {
    // Set while one request runs the invite for the lead; a stale claim (crashed replica) expires.
    await runner.query(`ALTER TABLE leads.leads ADD COLUMN invite_claimed_at timestamptz`);
    await runner.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public`);
    await runner.query(`CREATE INDEX leads_coach_newest_idx ON leads.leads (created_at DESC, id DESC) WHERE role <> 'investor'`);
    // Status filters page by date inside one status; the counters are an index-only scan of it.
    await runner.query(`
      CREATE INDEX leads_coach_status_idx ON leads.leads (approval_status, created_at DESC, id DESC)
      INCLUDE (user_created) WHERE role <> 'investor'`);
    await runner.query(`
      CREATE INDEX leads_coach_active_idx ON leads.leads (created_at DESC, id DESC)
      WHERE role <> 'investor' AND user_created`);
    // Substring search over e-mail and name.
    await runner.query(`
      CREATE INDEX leads_coach_search_idx ON leads.leads
      USING gin ((email || ' ' || coalesce(full_name, '')) public.gin_trgm_ops) WHERE role <> 'investor'`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX leads.leads_coach_search_idx`);
    await runner.query(`DROP INDEX leads.leads_coach_active_idx`);
    await runner.query(`DROP INDEX leads.leads_coach_status_idx`);
    await runner.query(`DROP INDEX leads.leads_coach_newest_idx`);
    await runner.query(`ALTER TABLE leads.leads DROP COLUMN invite_claimed_at`);
  }
}
