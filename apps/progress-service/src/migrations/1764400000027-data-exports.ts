import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Each requested data export and, once built, where its archive is: the page offers a small one at once. */
export class DataExports1764400000027 implements MigrationInterface {
  name = 'DataExports1764400000027';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE progress.data_exports (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL,
        status text NOT NULL DEFAULT 'preparing' CHECK (status IN ('preparing', 'ready')),
        object_key text,
        created_at timestamptz NOT NULL DEFAULT now(),
        ready_at timestamptz
      )`);
    await runner.query(`CREATE INDEX data_exports_user_idx ON progress.data_exports (user_id)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE progress.data_exports`);
  }
}
