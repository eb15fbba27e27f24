import { createTestDatabase, type TestDatabase } from './infrastructure';
import { startTestS3, type TestS3 } from './s3-server';

/**
 * A database of the test file's own, migrated by `open` (a service's `openMigrated`), and a real S3, both made before
 * the file's tests and removed after them. Read each through its getter, in a test or a hook after this one.
 */
export function useDatabaseAndS3<DataSource extends { destroy(): Promise<unknown> }>(open: (databaseUrl: string) => Promise<DataSource>) {
  let database: TestDatabase | undefined;
  let dataSource: DataSource | undefined;
  let s3: TestS3 | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await open(database.url);
    s3 = await startTestS3();
  });
  afterAll(async () => {
    await s3?.close();
    await dataSource?.destroy();
    await database?.drop();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the database and S3 start in beforeAll');
    return value;
  };
  return { dataSource: () => started(dataSource), s3: () => started(s3) };
}
