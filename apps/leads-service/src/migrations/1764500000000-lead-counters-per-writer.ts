import type { MigrationInterface, QueryRunner } from 'typeorm';
import { LeadCounters1763800000003 } from './1763800000003-lead-counters';

/**
 * `leads.lead_counters` kept by one upsert per statement into the writing connection's shard, instead of one upsert
 * per lead into the lead's shard. A group of leads committed together then costs the counters one row write, and two
 * transactions on different connections touch different counter rows, so neither waits for the other's COMMIT.
 * A shard no longer follows its leads (a lead counted in one shard may be uncounted in another, leaving a shard
 * negative); only the sum per (approval_status, user_created), which is what the dashboard reads, is exact.
 *
 * The counter rows need no recount: their sums are already exact, and dropping the row trigger locks `leads.leads`
 * until this migration commits, so no write falls between the two triggers.
 */
export class LeadCountersPerWriter1764500000000 implements MigrationInterface {
  name = 'LeadCountersPerWriter1764500000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TRIGGER leads_count ON leads.leads`);
    await runner.query(`DROP FUNCTION leads.count_leads()`);
    await runner.query(`DROP FUNCTION leads.lead_counter_shard(uuid)`);
    // Connections opened together get neighbouring process ids, so those of one pool mostly have distinct shards; two
    // that share one only wait for each other, as any two writers of one row do.
    await runner.query(`
      CREATE FUNCTION leads.writer_counter_shard() RETURNS smallint
      LANGUAGE sql STABLE PARALLEL RESTRICTED AS $$ SELECT (pg_backend_pid() & 63)::smallint $$`);
    // A lead without a status would be pending, as the column's default says (the column is NOT NULL today). Rows are
    // upserted in key order, so two writers that share a shard cannot deadlock within a statement; a statement whose
    // changes cancel out (a claim, a challenge answered) writes nothing and takes no lock. Each operation has its own
    // statement because a trigger only sees the transition tables of its own operation.
    const upsertMoved = (moved: string) => `
        INSERT INTO leads.lead_counters AS c (approval_status, user_created, shard, count)
        SELECT coalesce(approval_status, 'pending'), user_created, leads.writer_counter_shard(), sum(delta)
        FROM (${moved}) moved WHERE role <> 'investor'
        GROUP BY 1, 2 HAVING sum(delta) <> 0 ORDER BY 1, 2
        ON CONFLICT (approval_status, user_created, shard) DO UPDATE SET count = c.count + EXCLUDED.count;`;
    const added = `SELECT approval_status, user_created, role, 1 AS delta FROM new_leads`;
    const removed = `SELECT approval_status, user_created, role, -1 AS delta FROM old_leads`;
    await runner.query(`
      CREATE FUNCTION leads.count_changed_leads() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN ${upsertMoved(added)}
        ELSIF TG_OP = 'DELETE' THEN ${upsertMoved(removed)}
        ELSE ${upsertMoved(`${removed} UNION ALL ${added}`)}
        END IF;
        RETURN NULL;
      END $$`);
    await runner.query(`
      CREATE TRIGGER leads_count_inserted AFTER INSERT ON leads.leads
      REFERENCING NEW TABLE AS new_leads FOR EACH STATEMENT EXECUTE FUNCTION leads.count_changed_leads()`);
    await runner.query(`
      CREATE TRIGGER leads_count_updated AFTER UPDATE ON leads.leads
      REFERENCING OLD TABLE AS old_leads NEW TABLE AS new_leads FOR EACH STATEMENT EXECUTE FUNCTION leads.count_changed_leads()`);
    await runner.query(`
      CREATE TRIGGER leads_count_deleted AFTER DELETE ON leads.leads
      REFERENCING OLD TABLE AS old_leads FOR EACH STATEMENT EXECUTE FUNCTION leads.count_changed_leads()`);
  }

  /** Back to per-lead shards: the counters are rebuilt from the leads, as when they were first created. */
  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TRIGGER leads_count_deleted ON leads.leads`);
    await runner.query(`DROP TRIGGER leads_count_updated ON leads.leads`);
    await runner.query(`DROP TRIGGER leads_count_inserted ON leads.leads`);
    await runner.query(`DROP FUNCTION leads.count_changed_leads()`);
    await runner.query(`DROP FUNCTION leads.writer_counter_shard()`);
    await runner.query(`DROP TRIGGER leads_count_truncate ON leads.leads`);
    await runner.query(`DROP FUNCTION leads.reset_lead_counters()`);
    await runner.query(`DROP TABLE leads.lead_counters`);
    await new LeadCounters1763800000003().up(runner);
  }
}
