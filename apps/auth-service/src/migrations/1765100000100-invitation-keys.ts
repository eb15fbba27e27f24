import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The invitations made under a key the leads-service chose from its lead, per person, so the same lead's invitation
 * asked again (a coach pressing Approve after an answer lost past its commit) answers the first instead of e-mailing a
 * second link that voids it. A key belongs to its person's account and goes with it when the account is erased.
 */
export class InvitationKeys1765100000100 implements MigrationInterface {
  name = 'InvitationKeys1765100000100';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE auth.invitation_keys (
        user_id uuid NOT NULL REFERENCES auth.users (id) ON DELETE CASCADE,
        invitation_key text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, invitation_key)
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE auth.invitation_keys`);
  }
}
