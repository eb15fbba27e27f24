import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The role a service's processes act as in production: its own schema's rows, and nothing else. */
export const serviceRoleOf = (schema: string) => `spark_${schema}`;

/**
 * Creates the service's role (without LOGIN: an operator grants it to the login role the service connects as, or
 * gives it LOGIN and a password) and grants it the rows of its own schema: read and write every table and sequence,
 * those later migrations create included, but neither create, alter nor drop anything. Owning nothing, the service
 * cannot drop a trigger (the audit log's) nor reach another service's schema. docs/operations.md, "PostgreSQL roles".
 */
export class ServiceRole1764700000000 implements MigrationInterface {
  name = 'ServiceRole1764700000000';

  async up(runner: QueryRunner): Promise<void> {
    const schema = runner.connection.driver.schema ?? 'public';
    const role = serviceRoleOf(schema);
    // Roles belong to the whole server: another database's migration may be creating the same one right now.
    await runner.query(`
      DO $$ BEGIN
        IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${role}') THEN
          CREATE ROLE "${role}" NOLOGIN;
        END IF;
      EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
      END $$`);
    await runner.query(`GRANT USAGE ON SCHEMA "${schema}" TO "${role}"`);
    await runner.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA "${schema}" TO "${role}"`);
    await runner.query(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA "${schema}" TO "${role}"`);
    await runner.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA "${schema}" GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO "${role}"`);
    await runner.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA "${schema}" GRANT USAGE, SELECT ON SEQUENCES TO "${role}"`);
  }

  async down(runner: QueryRunner): Promise<void> {
    const schema = runner.connection.driver.schema ?? 'public';
    const role = serviceRoleOf(schema);
    await runner.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA "${schema}" REVOKE ALL ON SEQUENCES FROM "${role}"`);
    await runner.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA "${schema}" REVOKE ALL ON TABLES FROM "${role}"`);
    await runner.query(`REVOKE ALL ON ALL SEQUENCES IN SCHEMA "${schema}" FROM "${role}"`);
    await runner.query(`REVOKE ALL ON ALL TABLES IN SCHEMA "${schema}" FROM "${role}"`);
    await runner.query(`REVOKE USAGE ON SCHEMA "${schema}" FROM "${role}"`);
  }
}
