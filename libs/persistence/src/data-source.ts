import { Client } from 'pg';
import type { DataSource, MixedList, EntitySchema } from 'typeorm';
import { ServiceDataSource } from './unit-of-work';

export interface ServiceDataSourceOptions {
  url: string;
  /** The PostgreSQL schema this service owns; its entities and migrations table live there. */
  schema: string;
  // TypeORM's own option types: classes (entities/migrations) or entity schemas.
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: MixedList<Function | string | EntitySchema>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: MixedList<Function | string>;
  poolSize?: number;
  applicationName?: string;
}

export function createServiceDataSource(options: ServiceDataSourceOptions): ServiceDataSource {
  return new ServiceDataSource({
    type: 'postgres',
    url: options.url,
    schema: options.schema,
    entities: options.entities,
    migrations: options.migrations,
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    logging: false,
    // A request waits for a free connection no longer than a caller waits for its answer.
    extra: { max: options.poolSize ?? 10, application_name: options.applicationName ?? options.schema, connectionTimeoutMillis: 5_000 },
  });
}

/**
 * Creates the database named in `url` when it does not exist yet, so a fresh machine needs no
 * manual `createdb`. Safe when several services race to do it.
 */
export async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount) return;
    await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
  } catch (error) {
    // 42P04 duplicate_database / 23505: another process created it first.
    const code = (error as { code?: string }).code;
    if (code !== '42P04' && code !== '23505') throw error;
  } finally {
    await client.end();
  }
}

/**
 * Connects and runs the service's pending migrations. An advisory lock per schema makes
 * concurrent replicas wait for each other instead of applying the same migration twice.
 */
export async function initializeWithMigrations<D extends DataSource>(dataSource: D, schema: string): Promise<D> {
  if (!dataSource.isInitialized) await dataSource.initialize();
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock(hashtext($1))', [`migrations:${schema}`]);
    await runner.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await runner.query('SELECT pg_advisory_unlock(hashtext($1))', [`migrations:${schema}`]).catch(() => undefined);
    await runner.release();
  }
  return dataSource;
}
