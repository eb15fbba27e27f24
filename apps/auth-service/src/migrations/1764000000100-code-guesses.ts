import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Wrong sign-in codes per address, across all its codes, for addresses with and without an
 * account. Keyed by the SHA-256 of the address, so guessed addresses of people without an account
 * are not stored as such; `resets_at` ends the counting window, or the pause once the limit is reached.
 */
export class CodeGuesses1764000000100 implements MigrationInterface {
  name = 'CodeGuesses1764000000100';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE auth.code_guesses (
        email_hash bytea PRIMARY KEY,
        failures integer NOT NULL DEFAULT 0 CHECK (failures >= 0),
        resets_at timestamptz NOT NULL
      )`);
    // Each guess prunes a few rows whose window has passed.
    await runner.query(`CREATE INDEX code_guesses_resets_idx ON auth.code_guesses (resets_at)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE auth.code_guesses`);
  }
}
