import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The coach dashboard's counters without counting: `leads.lead_counters` holds the number of non-investor
 * leads per (approval_status, user_created), kept exact by a trigger on every write to `leads.leads`. Every
 * new lead adds 1 to the same (pending, false) pair, and lead submission is a hot path, so each pair is
 * spread over 64 shard rows chosen by the lead's id (one counter row updated by every writer
 * collapses under concurrency; with 10 concurrent inserts, one leads-service's pool, 16 shards left about a
 * quarter of them waiting on a counter row's lock, 64 under a tenth); a read sums at most 384 rows.
 */
export class LeadCounters1763800000003 implements MigrationInterface {
  name = 'LeadCounters1763800000003';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE leads.lead_counters (
        approval_status text NOT NULL,
        user_created boolean NOT NULL,
        shard smallint NOT NULL,
        count bigint NOT NULL,
        PRIMARY KEY (approval_status, user_created, shard)
      ) WITH (fillfactor = 50)`);
    // The last byte of a random (v4) uuid: uniform, and the same for a lead on insert, update and delete.
    await runner.query(`
      CREATE FUNCTION leads.lead_counter_shard(id uuid) RETURNS smallint
      LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT (get_byte(uuid_send(id), 15) & 63)::smallint $$`);
    // A lead without a status would be pending, as the column's default says (the column is NOT NULL today).
    // Each branch writes its counter rows in one upsert, so a missing row is created rather than a change lost.
    await runner.query(`
      CREATE FUNCTION leads.count_leads() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        old_status text;
        new_status text;
      BEGIN
        IF TG_OP <> 'INSERT' AND OLD.role <> 'investor' THEN old_status := coalesce(OLD.approval_status, 'pending'); END IF;
        IF TG_OP <> 'DELETE' AND NEW.role <> 'investor' THEN new_status := coalesce(NEW.approval_status, 'pending'); END IF;
        IF old_status IS NULL AND new_status IS NULL THEN
          RETURN NULL;
        ELSIF old_status IS NULL THEN
          INSERT INTO leads.lead_counters AS c (approval_status, user_created, shard, count)
          VALUES (new_status, NEW.user_created, leads.lead_counter_shard(NEW.id), 1)
          ON CONFLICT (approval_status, user_created, shard) DO UPDATE SET count = c.count + 1;
        ELSIF new_status IS NULL THEN
          INSERT INTO leads.lead_counters AS c (approval_status, user_created, shard, count)
          VALUES (old_status, OLD.user_created, leads.lead_counter_shard(OLD.id), -1)
          ON CONFLICT (approval_status, user_created, shard) DO UPDATE SET count = c.count - 1;
        ELSIF (old_status, OLD.user_created, leads.lead_counter_shard(OLD.id))
              IS DISTINCT FROM (new_status, NEW.user_created, leads.lead_counter_shard(NEW.id)) THEN
          -- Both rows in one statement, in key order: two updates moving leads in opposite directions cannot deadlock.
          INSERT INTO leads.lead_counters AS c (approval_status, user_created, shard, count)
          SELECT * FROM (VALUES (old_status, OLD.user_created, leads.lead_counter_shard(OLD.id), -1::bigint),
                                (new_status, NEW.user_created, leads.lead_counter_shard(NEW.id), 1::bigint)) AS moved
          ORDER BY 1, 2, 3
          ON CONFLICT (approval_status, user_created, shard) DO UPDATE SET count = c.count + EXCLUDED.count;
        END IF;
        RETURN NULL;
      END $$`);
    // No lead may be written between the trigger's creation and the backfill's count (until this migration
    // commits), or it would be counted twice or never.
    await runner.query(`LOCK TABLE leads.leads IN SHARE ROW EXCLUSIVE MODE`);
    await runner.query(`
      CREATE TRIGGER leads_count AFTER INSERT OR DELETE OR UPDATE OF approval_status, user_created, role, id ON leads.leads
      FOR EACH ROW EXECUTE FUNCTION leads.count_leads()`);
    // TRUNCATE fires no row trigger: it empties the counters with the leads.
    await runner.query(`
      CREATE FUNCTION leads.reset_lead_counters() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM leads.lead_counters;
        RETURN NULL;
      END $$`);
    await runner.query(`CREATE TRIGGER leads_count_truncate AFTER TRUNCATE ON leads.leads FOR EACH STATEMENT EXECUTE FUNCTION leads.reset_lead_counters()`);
    await runner.query(`
      INSERT INTO leads.lead_counters (approval_status, user_created, shard, count)
      SELECT coalesce(approval_status, 'pending'), user_created, leads.lead_counter_shard(id), count(*)
      FROM leads.leads WHERE role <> 'investor' GROUP BY 1, 2, 3`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TRIGGER leads_count_truncate ON leads.leads`);
    await runner.query(`DROP TRIGGER leads_count ON leads.leads`);
    await runner.query(`DROP FUNCTION leads.reset_lead_counters()`);
    await runner.query(`DROP FUNCTION leads.count_leads()`);
    await runner.query(`DROP FUNCTION leads.lead_counter_shard(uuid)`);
    await runner.query(`DROP TABLE leads.lead_counters`);
  }
}
