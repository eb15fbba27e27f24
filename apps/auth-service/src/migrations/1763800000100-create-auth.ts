import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateAuth1763800000100 implements MigrationInterface {
  name = 'CreateAuth1763800000100';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE auth.users (
        id uuid PRIMARY KEY,
        email text NOT NULL CHECK (email = lower(btrim(email))),
        role text NOT NULL DEFAULT 'client' CHECK (role IN ('client', 'coach', 'admin')),
        full_name text,
        onboarding_completed_at timestamptz,
        transformation_goal text,
        assigned_coach_id uuid REFERENCES auth.users (id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`CREATE UNIQUE INDEX users_email_key ON auth.users (email)`);
    // The dashboard lists users of one role, newest first (keyset on created_at, id).
    await runner.query(`CREATE INDEX users_role_newest_idx ON auth.users (role, created_at DESC, id DESC)`);
    await runner.query(`CREATE INDEX users_newest_idx ON auth.users (created_at DESC, id DESC)`);

    await runner.query(`
      CREATE TABLE auth.magic_links (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES auth.users (id) ON DELETE CASCADE,
        email text NOT NULL,
        token_hash bytea NOT NULL,
        code_hash bytea NOT NULL,
        code_attempts integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      )`);
    await runner.query(`CREATE UNIQUE INDEX magic_links_token_key ON auth.magic_links (token_hash)`);
    await runner.query(`CREATE INDEX magic_links_open_by_email_idx ON auth.magic_links (email, created_at DESC) WHERE used_at IS NULL`);

    await runner.query(`
      CREATE TABLE auth.refresh_tokens (
        id uuid PRIMARY KEY,
        family_id uuid NOT NULL,
        user_id uuid NOT NULL REFERENCES auth.users (id) ON DELETE CASCADE,
        token_hash bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        revoked_at timestamptz
      )`);
    await runner.query(`CREATE UNIQUE INDEX refresh_tokens_token_key ON auth.refresh_tokens (token_hash)`);
    await runner.query(`CREATE INDEX refresh_tokens_family_idx ON auth.refresh_tokens (family_id)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE auth.refresh_tokens`);
    await runner.query(`DROP TABLE auth.magic_links`);
    await runner.query(`DROP TABLE auth.users`);
  }
}
