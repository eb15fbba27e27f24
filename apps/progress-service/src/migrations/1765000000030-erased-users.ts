import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The clients erased in the last day, by id alone: a capture or an onboarding already under way when its client was
 * erased would otherwise create their progress row again, with their address. A day outlasts any request in flight;
 * the hourly upload sweep removes the older ones.
 */
export class ErasedUsers1765000000030 implements MigrationInterface {
  name = 'ErasedUsers1765000000030';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE progress.erased_users (user_id uuid PRIMARY KEY, erased_at timestamptz NOT NULL DEFAULT now())`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE progress.erased_users`);
  }
}
