import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When BullMQ reported an outbox row's job finished (completed, or failed for good): until then the relay's
 * reconciler keeps checking that the job still exists, and dispatches it again when Redis lost it. And why the
 * relay set a row aside instead of dispatching it (a payload its job's schema refuses).
 */
export class ConfirmOutboxJobs1764100000000 implements MigrationInterface {
  name = 'ConfirmOutboxJobs1764100000000';

  async up(runner: QueryRunner): Promise<void> {
    const schema = runner.connection.driver.schema ?? 'public';
    await runner.query(`ALTER TABLE "${schema}"."outbox" ADD COLUMN confirmed_at timestamptz, ADD COLUMN rejected_reason text`);
    // Rows dispatched before this column existed had a day to finish; only newer ones need proving.
    await runner.query(`UPDATE "${schema}"."outbox" SET confirmed_at = dispatched_at WHERE dispatched_at < now() - interval '1 day'`);
    await runner.query(
      `CREATE INDEX "outbox_unconfirmed_idx" ON "${schema}"."outbox" (dispatched_at, id) WHERE dispatched_at IS NOT NULL AND confirmed_at IS NULL`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    const schema = runner.connection.driver.schema ?? 'public';
    await runner.query(`DROP INDEX "${schema}"."outbox_unconfirmed_idx"`);
    await runner.query(`ALTER TABLE "${schema}"."outbox" DROP COLUMN confirmed_at, DROP COLUMN rejected_reason`);
  }
}
