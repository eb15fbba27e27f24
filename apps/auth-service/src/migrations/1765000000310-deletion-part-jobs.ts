import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each part of an account deletion that a job erases keeps that job's id for good (`job_id`: its outbox row's id, and
 * so its BullMQ job's). The sweep of open parts queues a part's job again under it, and BullMQ ignores the add while the
 * job is still there (waiting, retrying, or failed for good and left to an admin): only a job Redis lost comes back.
 *
 * A part confirmed before takes the id of its erase job's outbox row while the row is there. One whose row was already
 * pruned gets a new id: if its old job is still in Redis, the part may run once more beside it, which an erasure bears.
 */
export class DeletionPartJobs1765000000310 implements MigrationInterface {
  name = 'DeletionPartJobs1765000000310';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE auth.account_deletion_parts ADD COLUMN job_id uuid`);
    // Queue names are never renamed: each part's queue is `account-deletion-<part>`.
    await runner.query(
      `UPDATE auth.account_deletion_parts p SET job_id = o.id FROM auth.outbox o
       WHERE p.part <> 'auth' AND o.queue = 'account-deletion-' || p.part AND o.job_name = 'erase-account'
         AND o.payload->>'deletionId' = p.deletion_id::text`,
    );
    await runner.query(`UPDATE auth.account_deletion_parts SET job_id = gen_random_uuid() WHERE part <> 'auth' AND job_id IS NULL`);
    // The auth part is erased in the confirming transaction; every other part by its job.
    await runner.query(`ALTER TABLE auth.account_deletion_parts ADD CONSTRAINT account_deletion_parts_job_check CHECK ((part = 'auth') = (job_id IS NULL))`);
    await runner.query(`CREATE INDEX account_deletion_parts_open_idx ON auth.account_deletion_parts (job_id) WHERE done_at IS NULL`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX auth.account_deletion_parts_open_idx`);
    await runner.query(`ALTER TABLE auth.account_deletion_parts DROP COLUMN job_id`);
  }
}
