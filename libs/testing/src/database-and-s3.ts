import { createTestDatabase, type TestDatabase } from './infrastructure';
import { startTestS3, type TestS3 } from './s3-server';

const started = <T>(value: T | undefined, what: string): T => {
  if (value === undefined) throw new Error(`${what} starts in beforeAll`);
  return value;
};

/**
 * A database of the test file's own, migrated by `open` (a service's `openMigrated`), made before the file's tests
 * and dropped after them. Read it through the getter, in a test or a hook after this one.
 */
export function useMigratedDatabase<DataSource extends { destroy(): Promise<unknown> }>(open: (databaseUrl: string) => Promise<DataSource>) {
  let database: TestDatabase | undefined;
  let dataSource: DataSource | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await open(database.url);
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });
  return { dataSource: () => started(dataSource, 'the database') };
}

/** `useMigratedDatabase` and a real S3, both made before the file's tests and removed after them. */
export function useDatabaseAndS3<DataSource extends { destroy(): Promise<unknown> }>(open: (databaseUrl: string) => Promise<DataSource>) {
  const { dataSource } = useMigratedDatabase(open);
  let s3: TestS3 | undefined;
  beforeAll(async () => {
    s3 = await startTestS3();
  });
  afterAll(async () => {
    await s3?.close();
  });
  return { dataSource, s3: () => started(s3, 'S3') };
}
