import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sign-in links and refresh tokens were kept for good after they expired: a row for every link asked for and every
 * session renewal, holding the address a link went to. Each new one now removes a few expired ones
 * (`expiredRowsSql`), found by these indexes.
 */
export class ExpiredSignInRows1765000000100 implements MigrationInterface {
  name = 'ExpiredSignInRows1765000000100';
  // Built without blocking writes (CONCURRENTLY, which a transaction may not hold): both tables are large by now, and
  // the replicas still running go on signing people in and renewing their sessions meanwhile. A build cut short
  // leaves an invalid index behind, which IF NOT EXISTS would keep: it is dropped first.
  transaction = false;

  async up(runner: QueryRunner): Promise<void> {
    for (const [index, table] of [
      ['magic_links_expiry_idx', 'magic_links'],
      ['refresh_tokens_expiry_idx', 'refresh_tokens'],
    ]) {
      await runner.query(`DROP INDEX CONCURRENTLY IF EXISTS auth.${index}`);
      await runner.query(`CREATE INDEX CONCURRENTLY ${index} ON auth.${table} (expires_at)`);
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX CONCURRENTLY IF EXISTS auth.magic_links_expiry_idx`);
    await runner.query(`DROP INDEX CONCURRENTLY IF EXISTS auth.refresh_tokens_expiry_idx`);
  }
}
