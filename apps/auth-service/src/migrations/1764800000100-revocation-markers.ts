import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A copy of the Redis markers that end access tokens at once (`SessionRevocations`), each until its token could have
 * expired, so that a Redis that restarts empty gets them back.
 */
export class RevocationMarkers1764800000100 implements MigrationInterface {
  name = 'RevocationMarkers1764800000100';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE auth.revocation_markers (
        key text PRIMARY KEY,
        value text NOT NULL,
        expires_at timestamptz NOT NULL
      )`);
    await runner.query(`CREATE INDEX revocation_markers_expiry_idx ON auth.revocation_markers (expires_at)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE auth.revocation_markers`);
  }
}
