import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each generation keeps the gateway's statement that its client asked for it (at its address, under the first name of
 * its answers), which its "Day in the Life is ready" e-mail carries to the notifier. Generations asked for before the
 * gateway made such statements have none, and their e-mail is not sent.
 */
export class GenerationRequests1764900000054 implements MigrationInterface {
  name = 'GenerationRequests1764900000054';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE ditl.generations ADD COLUMN requested jsonb`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE ditl.generations DROP COLUMN requested`);
  }
}
