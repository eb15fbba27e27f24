import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sign-in links and refresh tokens were kept for good after they expired: a row for every link asked for and every
 * session renewal, holding the address a link went to. Each new one now removes a few expired ones
 * (`expiredRowsSql`), found by these indexes. Built in the migration's transaction, not CONCURRENTLY: a concurrent
 * build waits for every older snapshot in the database, and a replica starting beside this one holds one while it
 * waits for the migrations' advisory lock, which this one holds, so neither would ever go on.
 */
export class ExpiredSignInRows1765000000100 implements MigrationInterface {
  name = 'ExpiredSignInRows1765000000100';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE INDEX magic_links_expiry_idx ON auth.magic_links (expires_at)`);
    await runner.query(`CREATE INDEX refresh_tokens_expiry_idx ON auth.refresh_tokens (expires_at)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX auth.magic_links_expiry_idx`);
    await runner.query(`DROP INDEX auth.refresh_tokens_expiry_idx`);
  }
}
