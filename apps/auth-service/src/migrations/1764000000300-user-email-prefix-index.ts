import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The Team tab finds users by the start of their e-mail (`LIKE 'prefix%'` needs the pattern operator class). */
export class UserEmailPrefixIndex1764000000300 implements MigrationInterface {
  name = 'UserEmailPrefixIndex1764000000300';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE INDEX users_email_prefix_idx ON auth.users (email text_pattern_ops)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX auth.users_email_prefix_idx`);
  }
}
