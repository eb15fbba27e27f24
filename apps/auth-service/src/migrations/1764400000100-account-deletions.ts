import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Account deletion: the e-mailed confirmations, and the deletion records admins read. A record names whose
 * account it erases only until every part is done (the parts' services look the subject up by the record's id);
 * then `user_id` and `email` are cleared and only the dates remain.
 *
 * The audit log stays append-only, with one exception: while `spark.erasing_account` is set for the transaction,
 * an UPDATE may replace who an entry is about or by (ids, e-mail, label) and nothing else.
 */
export class AccountDeletions1764400000100 implements MigrationInterface {
  name = 'AccountDeletions1764400000100';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE auth.deletion_confirmations (
        token_hash bytea PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES auth.users (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL
      )`);
    await runner.query(`CREATE INDEX deletion_confirmations_user_idx ON auth.deletion_confirmations (user_id)`);
    await runner.query(`
      CREATE TABLE auth.account_deletions (
        id uuid PRIMARY KEY,
        user_id uuid,
        email text,
        requested_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz,
        CHECK ((completed_at IS NULL) = (user_id IS NOT NULL AND email IS NOT NULL))
      )`);
    await runner.query(`CREATE INDEX account_deletions_newest_idx ON auth.account_deletions (requested_at DESC, id DESC)`);
    await runner.query(`
      CREATE TABLE auth.account_deletion_parts (
        deletion_id uuid NOT NULL REFERENCES auth.account_deletions (id) ON DELETE CASCADE,
        part text NOT NULL,
        done_at timestamptz,
        PRIMARY KEY (deletion_id, part)
      )`);
    await runner.query(`
      CREATE OR REPLACE FUNCTION auth.refuse_audit_event_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'UPDATE' AND current_setting('spark.erasing_account', true) = 'on'
           AND (NEW.id, NEW.correlation_id, NEW.at, NEW.recorded_at, NEW.actor_role, NEW.action, NEW.target_type, NEW.client_ip, NEW.outcome, NEW.details)
               IS NOT DISTINCT FROM
               (OLD.id, OLD.correlation_id, OLD.at, OLD.recorded_at, OLD.actor_role, OLD.action, OLD.target_type, OLD.client_ip, OLD.outcome, OLD.details)
        THEN
          RETURN NEW;
        END IF;
        RAISE EXCEPTION 'auth.audit_events is append-only: % refused', TG_OP;
      END $$`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE OR REPLACE FUNCTION auth.refuse_audit_event_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'auth.audit_events is append-only: % refused', TG_OP;
      END $$`);
    await runner.query(`DROP TABLE auth.account_deletion_parts`);
    await runner.query(`DROP TABLE auth.account_deletions`);
    await runner.query(`DROP TABLE auth.deletion_confirmations`);
  }
}
