import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A coach who adds a client lead may give it a custom evolution length before the person has an
 * account. The length waits here, keyed by e-mail, and the client's first progress row takes it
 * when onboarding inserts it (see docs/decisions.md "Custom evolution days of a client lead").
 */
export class CoachEvolutionPresets1763800000022 implements MigrationInterface {
  name = 'CoachEvolutionPresets1763800000022';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE progress.evolution_presets (
        email text PRIMARY KEY,
        custom_evolution_days integer NOT NULL CHECK (custom_evolution_days BETWEEN 1 AND 365),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    // In the database so every writer of a first evolution honours it, whatever code path inserts.
    await runner.query(`
      CREATE FUNCTION progress.apply_evolution_preset() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE preset integer;
      BEGIN
        SELECT custom_evolution_days INTO preset FROM progress.evolution_presets WHERE email = lower(trim(NEW.email));
        IF preset IS NOT NULL THEN
          NEW.custom_evolution_days := preset;
          NEW.evolution_end_date := NEW.evolution_start_date + preset;
        END IF;
        RETURN NEW;
      END $$`);
    await runner.query(`
      CREATE TRIGGER user_progress_apply_preset BEFORE INSERT ON progress.user_progress
      FOR EACH ROW EXECUTE FUNCTION progress.apply_evolution_preset()`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TRIGGER user_progress_apply_preset ON progress.user_progress`);
    await runner.query(`DROP FUNCTION progress.apply_evolution_preset()`);
    await runner.query(`DROP TABLE progress.evolution_presets`);
  }
}
