import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The client record (docs/product.md §3, user_progress) and the onboarding answers. A client has one
 * progress row, created when onboarding completes; counters live on it, one row per user, so
 * concurrent captures by different clients never contend on a shared row.
 */
export class CreateUserProgress1763800000020 implements MigrationInterface {
  name = 'CreateUserProgress1763800000020';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE progress.user_progress (
        user_id uuid PRIMARY KEY,
        email text NOT NULL,
        full_name text,
        transformation_goal text,
        spark_count integer NOT NULL DEFAULT 0 CHECK (spark_count >= 0),
        streak_count integer NOT NULL DEFAULT 0 CHECK (streak_count >= 0),
        evolution_number integer NOT NULL DEFAULT 1 CHECK (evolution_number >= 1),
        evolution_start_date date NOT NULL,
        evolution_end_date date NOT NULL,
        status text NOT NULL DEFAULT 'active',
        custom_evolution_days integer CHECK (custom_evolution_days BETWEEN 1 AND 365),
        last_spark_date date,
        time_zone text NOT NULL DEFAULT 'UTC',
        assigned_coach_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`CREATE INDEX user_progress_evolution_start_idx ON progress.user_progress (evolution_start_date DESC, user_id DESC)`);
    await runner.query(`
      CREATE TABLE progress.onboarding_data (
        user_id uuid PRIMARY KEY,
        data jsonb NOT NULL,
        completed_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE progress.onboarding_data`);
    await runner.query(`DROP TABLE progress.user_progress`);
  }
}
