import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The transactional outbox of a service, created in that service's own schema: a job is
 * written in the same transaction as the state it announces, and `OutboxRelay` moves it to BullMQ.
 */
export class CreateOutbox1763800000000 implements MigrationInterface {
  name = 'CreateOutbox1763800000000';

  async up(runner: QueryRunner): Promise<void> {
    const schema = runner.connection.driver.schema ?? 'public';
    await runner.query(`
      CREATE TABLE "${schema}"."outbox" (
        id uuid PRIMARY KEY,
        queue text NOT NULL,
        job_name text NOT NULL,
        payload jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        dispatched_at timestamptz
      )`);
    await runner.query(`CREATE INDEX "outbox_pending_idx" ON "${schema}"."outbox" (created_at) WHERE dispatched_at IS NULL`);
    await runner.query(`CREATE INDEX "outbox_dispatched_idx" ON "${schema}"."outbox" (dispatched_at) WHERE dispatched_at IS NOT NULL`);
  }

  async down(runner: QueryRunner): Promise<void> {
    const schema = runner.connection.driver.schema ?? 'public';
    await runner.query(`DROP TABLE "${schema}"."outbox"`);
  }
}
