import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit log of admin and coach actions. Append-only: triggers refuse UPDATE, DELETE and TRUNCATE,
 * so neither the app nor a mistaken query rewrites history. No foreign key to users: the log outlives them.
 */
export class CreateAuditEvents1763800000190 implements MigrationInterface {
  name = 'CreateAuditEvents1763800000190';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE auth.audit_events (
        id uuid PRIMARY KEY,
        correlation_id text NOT NULL,
        at timestamptz NOT NULL,
        recorded_at timestamptz NOT NULL DEFAULT now(),
        actor_id uuid NOT NULL,
        actor_email text NOT NULL,
        actor_role text NOT NULL,
        action text NOT NULL,
        target_type text NOT NULL,
        target_id text,
        target_label text,
        client_ip text NOT NULL,
        outcome text NOT NULL CHECK (outcome IN ('succeeded', 'refused')),
        details jsonb NOT NULL DEFAULT '{}'
      )`);
    // The Audit Log tab: newest first, and the same filtered by action or by actor.
    await runner.query(`CREATE INDEX audit_events_newest_idx ON auth.audit_events (at DESC, id DESC)`);
    await runner.query(`CREATE INDEX audit_events_action_idx ON auth.audit_events (action, at DESC, id DESC)`);
    await runner.query(`CREATE INDEX audit_events_actor_id_idx ON auth.audit_events (actor_id, at DESC, id DESC)`);
    await runner.query(`CREATE INDEX audit_events_actor_email_idx ON auth.audit_events (actor_email, at DESC, id DESC)`);
    await runner.query(`
      CREATE FUNCTION auth.refuse_audit_event_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'auth.audit_events is append-only: % refused', TG_OP;
      END $$`);
    await runner.query(`
      CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE ON auth.audit_events
      FOR EACH ROW EXECUTE FUNCTION auth.refuse_audit_event_change()`);
    await runner.query(`
      CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON auth.audit_events
      FOR EACH STATEMENT EXECUTE FUNCTION auth.refuse_audit_event_change()`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE auth.audit_events`);
    await runner.query(`DROP FUNCTION auth.refuse_audit_event_change()`);
  }
}
