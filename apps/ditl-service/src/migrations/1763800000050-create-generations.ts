import type { MigrationInterface, QueryRunner } from 'typeorm';

/** One row per requested DITL presentation; the worker moves it through the states of docs/product.md §4. */
export class CreateGenerations1763800000050 implements MigrationInterface {
  name = 'CreateGenerations1763800000050';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE ditl.generations (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL,
        email text NOT NULL,
        lead_id uuid,
        answers jsonb NOT NULL,
        status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'generating', 'completed', 'failed')),
        progress integer NOT NULL DEFAULT 0 CHECK (progress BETWEEN 0 AND 100),
        planner text,
        presentation_key text,
        error text,
        attempts integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz
      )`);
    await runner.query(`CREATE INDEX generations_user_newest_idx ON ditl.generations (user_id, created_at DESC) WHERE status IN ('queued', 'generating')`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE ditl.generations`);
  }
}
