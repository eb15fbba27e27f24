import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An invitation's key holds only while the link it issued could still be used: the same lead's invitation asked again
 * after that link has lapsed sends a fresh one instead of answering with a link nobody can use. Keys written before
 * this column are given the lapse their link had, an hour after the key; the default gives the same to a key written by
 * an auth-service of the release before, which knows nothing of the column while a rollout runs.
 */
export class InvitationKeyLapse1765200000100 implements MigrationInterface {
  name = 'InvitationKeyLapse1765200000100';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE auth.invitation_keys ADD COLUMN link_expires_at timestamptz`);
    await runner.query(`UPDATE auth.invitation_keys SET link_expires_at = created_at + interval '1 hour'`);
    await runner.query(
      `ALTER TABLE auth.invitation_keys ALTER COLUMN link_expires_at SET NOT NULL, ALTER COLUMN link_expires_at SET DEFAULT now() + interval '1 hour'`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE auth.invitation_keys DROP COLUMN link_expires_at`);
  }
}
