import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Access codes become SHA-256 hashes (a code has 100 random bits, so an unkeyed hash cannot be reversed
 * by trying codes), and expire. Codes already handed out keep working for one full window from now.
 */
export class HashAccessCodes1763800000061 implements MigrationInterface {
  name = 'HashAccessCodes1763800000061';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE investor.deck_access ADD COLUMN code_hash bytea, ADD COLUMN expires_at timestamptz`);
    await runner.query(`ALTER TABLE investor.deck_access RENAME COLUMN created_at TO issued_at`);
    // The stored codes are already in the form the deck form normalises to (trimmed, upper case). The clear
    // code is blanked in the same write: DROP COLUMN alone leaves its bytes in every row until rewritten.
    await runner.query(`ALTER TABLE investor.deck_access ALTER COLUMN access_code DROP NOT NULL`);
    await runner.query(`
      UPDATE investor.deck_access
      SET code_hash = sha256(convert_to(access_code, 'UTF8')), expires_at = now() + interval '30 days', access_code = NULL`);
    await runner.query(`ALTER TABLE investor.deck_access ALTER COLUMN code_hash SET NOT NULL, ALTER COLUMN expires_at SET NOT NULL`);
    await runner.query(`ALTER TABLE investor.deck_access DROP COLUMN access_code`);
    await runner.query(`CREATE UNIQUE INDEX deck_access_code_hash_key ON investor.deck_access (code_hash)`);
  }

  async down(): Promise<void> {
    throw new Error('Hashed access codes cannot be turned back into codes: reissue them instead.');
  }
}
