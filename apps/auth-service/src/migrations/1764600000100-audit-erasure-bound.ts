import type { MigrationInterface, QueryRunner } from 'typeorm';

const REFUSAL = `RAISE EXCEPTION 'auth.audit_events is append-only: % refused', TG_OP;`;
/** What was done, when, by which role and with what outcome stays: only who it was by or about may change. */
const ONLY_IDENTITY_CHANGED = `
  (NEW.id, NEW.correlation_id, NEW.at, NEW.recorded_at, NEW.actor_role, NEW.action, NEW.target_type, NEW.client_ip, NEW.outcome, NEW.details)
  IS NOT DISTINCT FROM
  (OLD.id, OLD.correlation_id, OLD.at, OLD.recorded_at, OLD.actor_role, OLD.action, OLD.target_type, OLD.client_ip, OLD.outcome, OLD.details)`;

/** Before this migration: while `spark.erasing_account` is set, any change to who an entry is about or by. */
const ANY_IDENTITY_CHANGE = `
  CREATE OR REPLACE FUNCTION auth.refuse_audit_event_change() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP = 'UPDATE' AND current_setting('spark.erasing_account', true) = 'on'
       AND ${ONLY_IDENTITY_CHANGED}
    THEN
      RETURN NEW;
    END IF;
    ${REFUSAL}
  END $$`;

/**
 * The audit log's one exception, bound to the deletion it serves: while `spark.erasing_account` is set, an entry's
 * actor or target may change only from an account being deleted (an unfinished `auth.account_deletions` row, written
 * in the same transaction) to that deletion's markers: its id for the account's id, "Deleted account" for its address
 * or label. A mistake in the erasure's own matching is then refused by the database instead of relabelling someone
 * else's entries.
 */
export class AuditErasureBound1764600000100 implements MigrationInterface {
  name = 'AuditErasureBound1764600000100';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE OR REPLACE FUNCTION auth.refuse_audit_event_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'UPDATE' AND current_setting('spark.erasing_account', true) = 'on'
           AND ${ONLY_IDENTITY_CHANGED}
           AND EXISTS (
             SELECT 1 FROM auth.account_deletions AS deletion
             WHERE deletion.completed_at IS NULL
               AND (NEW.actor_id IS NOT DISTINCT FROM OLD.actor_id OR (OLD.actor_id = deletion.user_id AND NEW.actor_id = deletion.id))
               AND (NEW.actor_email IS NOT DISTINCT FROM OLD.actor_email
                    OR ((OLD.actor_id = deletion.user_id OR OLD.actor_email = deletion.email) AND NEW.actor_email = 'Deleted account'))
               AND (NEW.target_id IS NOT DISTINCT FROM OLD.target_id OR (OLD.target_id = deletion.user_id::text AND NEW.target_id = deletion.id::text))
               AND (NEW.target_label IS NOT DISTINCT FROM OLD.target_label
                    OR ((OLD.target_id = deletion.user_id::text OR lower(OLD.target_label) = deletion.email) AND NEW.target_label = 'Deleted account'))
           )
        THEN
          RETURN NEW;
        END IF;
        ${REFUSAL}
      END $$`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(ANY_IDENTITY_CHANGE);
  }
}
