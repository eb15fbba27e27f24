import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sparks (docs/product.md §3) with the client-generated id that makes a retried upload a no-op, the
 * coach's notes to a client (the latest pinned one is shown on the home) and private notes.
 */
export class CreateSparksAndNotes1763800000021 implements MigrationInterface {
  name = 'CreateSparksAndNotes1763800000021';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE progress.sparks (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL,
        client_spark_id uuid NOT NULL,
        spark_type text NOT NULL CHECK (spark_type IN ('photo', 'file')),
        file_key text NOT NULL,
        file_type text NOT NULL,
        note text,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT sparks_user_client_id_key UNIQUE (user_id, client_spark_id)
      )`);
    // The activity list and the client's own list: newest first, keyset on (created_at, id).
    await runner.query(`CREATE INDEX sparks_user_created_idx ON progress.sparks (user_id, created_at DESC, id DESC)`);
    await runner.query(`
      CREATE TABLE progress.coach_notes (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL,
        coach_id uuid,
        message text NOT NULL,
        is_pinned boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`CREATE INDEX coach_notes_pinned_idx ON progress.coach_notes (user_id, created_at DESC) WHERE is_pinned`);
    await runner.query(`
      CREATE TABLE progress.coach_private_notes (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL,
        coach_id uuid NOT NULL,
        note text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`CREATE INDEX coach_private_notes_user_idx ON progress.coach_private_notes (user_id, created_at DESC)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE progress.coach_private_notes`);
    await runner.query(`DROP TABLE progress.coach_notes`);
    await runner.query(`DROP TABLE progress.sparks`);
  }
}
