import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The zone a stored client time zone stands for in this database: itself when PostgreSQL knows it,
 * else UTC. Every query that does calendar arithmetic in a client's zone goes through it, so a zone
 * written before the service checked them, or dropped by a later time zone database, costs that one
 * client UTC days instead of failing the coach's whole list.
 */
export class KnownTimeZone1763800000023 implements MigrationInterface {
  name = 'KnownTimeZone1763800000023';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE FUNCTION progress.known_time_zone(zone text) RETURNS text LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
      BEGIN
        PERFORM now() AT TIME ZONE zone;
        RETURN zone;
      EXCEPTION WHEN invalid_parameter_value THEN
        RETURN 'UTC';
      END $$`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP FUNCTION progress.known_time_zone(text)`);
  }
}
