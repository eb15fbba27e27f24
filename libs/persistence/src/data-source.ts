import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import type { DataSource, MixedList } from 'typeorm';
import { ServiceDataSource } from './unit-of-work';

export interface ServiceDataSourceOptions {
  url: string;
  /** The PostgreSQL schema this service owns; its tables and migrations table live there. */
  schema: string;
  // TypeORM's own option type: migration classes, or paths to them.
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: MixedList<Function | string>;
  poolSize?: number;
  applicationName?: string;
}

/** A service's connection pool. Its repositories write their own SQL, so TypeORM is given no entities. */
export function createServiceDataSource(options: ServiceDataSourceOptions): ServiceDataSource {
  return new ServiceDataSource({
    type: 'postgres',
    url: options.url,
    schema: options.schema,
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

/** A data source for `options.schema`, connected, with its migrations run: what a script or a test starts from. */
export function openMigrated(options: ServiceDataSourceOptions): Promise<ServiceDataSource> {
  return initializeWithMigrations(createServiceDataSource(options), options.schema);
}

export interface SchemaPreparation {
  url: string;
  /** This process migrates its schema (the default); false when a separate step does (`npm run migrate`, a Job). */
  runMigrations: boolean;
  /** Told why the process still waits, each time it looks again. */
  onWaiting?: (reason: unknown) => void;
  pollMs?: number;
}

/**
 * The schema ready for this process: migrated by it, or, when another step migrates, connected and waited for
 * (without exiting, however long the migration takes) until every migration this code knows is applied.
 */
export async function prepareSchema<D extends DataSource>(dataSource: D, schema: string, preparation: SchemaPreparation): Promise<D> {
  if (preparation.runMigrations) {
    await ensureDatabase(preparation.url);
    return initializeWithMigrations(dataSource, schema);
  }
  for (;;) {
    try {
      if (!dataSource.isInitialized) await dataSource.initialize();
      if (await allMigrationsApplied(dataSource, schema)) return dataSource;
      preparation.onWaiting?.('migrations pending');
    } catch (error) {
      preparation.onWaiting?.(error);
    }
    await sleep(preparation.pollMs ?? 2000);
  }
}

/** Whether every migration of this code is recorded in the schema's migrations table (read only: it creates nothing). */
export async function allMigrationsApplied(dataSource: DataSource, schema: string): Promise<boolean> {
  let rows: { name: string }[];
  try {
    rows = await dataSource.query(`SELECT name FROM "${schema}"."migrations"`);
  } catch (error) {
    // 3F000 / 42P01: no schema or no migrations table yet.
    if (['3F000', '42P01'].includes((error as { code?: string }).code ?? '')) return false;
    throw error;
  }
  const applied = new Set(rows.map((row) => row.name));
  return dataSource.migrations.every((migration) => applied.has(migration.name ?? migration.constructor.name));
}
