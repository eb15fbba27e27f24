import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The private notes of a client, newest first, in pages on (created_at, id): the index holds the id too, so a page
 * after a cursor starts where the index says rather than after sorting every note of that instant.
 */
export class PrivateNotesKeysetIndex1765800000033 implements MigrationInterface {
  name = 'PrivateNotesKeysetIndex1765800000033';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE INDEX coach_private_notes_user_created_idx ON progress.coach_private_notes (user_id, created_at DESC, id DESC)`);
    await runner.query(`DROP INDEX progress.coach_private_notes_user_idx`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE INDEX coach_private_notes_user_idx ON progress.coach_private_notes (user_id, created_at DESC)`);
    await runner.query(`DROP INDEX progress.coach_private_notes_user_created_idx`);
  }
}
