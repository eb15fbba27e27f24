import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A refresh family now ends 30 days after its sign-in: each rotated token inherits the expiry of
 * the one it replaces. Families that rotated before this change get their sign-in's expiry back.
 * Role changes revoke every family of a user, hence the index on user_id.
 */
export class AbsoluteSessionLifetime1764000000200 implements MigrationInterface {
  name = 'AbsoluteSessionLifetime1764000000200';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      UPDATE auth.refresh_tokens t SET expires_at = family.ends_at
      FROM (SELECT family_id, min(created_at) + interval '30 days' AS ends_at FROM auth.refresh_tokens GROUP BY family_id) family
      WHERE t.family_id = family.family_id AND t.expires_at > family.ends_at`);
    await runner.query(`CREATE INDEX refresh_tokens_user_idx ON auth.refresh_tokens (user_id)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX auth.refresh_tokens_user_idx`);
  }
}
