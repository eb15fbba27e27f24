import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The finished plan as data beside its page, so the coach reads its moments and the client's page is drawn
 * with the coach's edits; and those edits, one per client and moment, kept across regenerations.
 */
export class PlansAndCoachEdits1763800000052 implements MigrationInterface {
  name = 'PlansAndCoachEdits1763800000052';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE ditl.generations ADD COLUMN plan jsonb`);
    await runner.query(`
      CREATE TABLE ditl.coach_edits (
        user_id uuid NOT NULL,
        moment text NOT NULL,
        narrative text NOT NULL,
        habit text NOT NULL,
        coach_id uuid NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, moment)
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE ditl.coach_edits`);
    await runner.query(`ALTER TABLE ditl.generations DROP COLUMN plan`);
  }
}
