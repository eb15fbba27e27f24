import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { openMigrated } from '@spark/persistence';
import { ObjectStorage } from '@spark/storage';
import { TINY_PNG, useDatabaseAndS3 } from '@spark/testing';
import { Entry, fromBuffer, type ZipFile } from 'yauzl';
import { progressMigrations } from '../migrations';
import { clientArchive, type OtherServicesData } from './client-archive';
import { ExportRepository } from './export.repository';

async function entryNames(zip: Buffer): Promise<Set<string>> {
  const file = await new Promise<ZipFile>((resolve, reject) =>
    fromBuffer(zip, { lazyEntries: true }, (error, opened) => (error ? reject(error) : resolve(opened))),
  );
  const names = new Set<string>();
  await new Promise<void>((resolve, reject) => {
    file.on('entry', (entry: Entry) => {
      names.add(entry.fileName);
      file.readEntry();
    });
    file.once('end', resolve).once('error', reject);
    file.readEntry();
  });
  return names;
}

async function entryText(zip: Buffer, name: string): Promise<string> {
  const file = await new Promise<ZipFile>((resolve, reject) =>
    fromBuffer(zip, { lazyEntries: true }, (error, opened) => (error ? reject(error) : resolve(opened))),
  );
  return new Promise<string>((resolve, reject) => {
    file.on('entry', (entry: Entry) => {
      if (entry.fileName !== name) return file.readEntry();
      file.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        void stream.toArray().then((chunks: Buffer[]) => resolve(Buffer.concat(chunks).toString('utf8')), reject);
      });
    });
    file.once('end', () => reject(new Error(`no ${name} in the archive`))).once('error', reject);
    file.readEntry();
  });
}

describe("the export archive's spark tables (real PostgreSQL and S3)", () => {
  const { dataSource, s3 } = useDatabaseAndS3((url) => openMigrated({ url, schema: 'progress', migrations: progressMigrations }));
  let storage: ObjectStorage;
  beforeAll(() => {
    storage = new ObjectStorage(s3().config);
  });
  afterAll(() => storage?.close());

  const recordSpark = async (userId: string, note: string, createdAt: string) => {
    const key = `sparks/${userId}/${randomUUID()}.png`;
    await storage.put({ key, body: TINY_PNG, contentType: 'image/png' });
    await dataSource().query(
      `INSERT INTO progress.sparks (user_id, client_spark_id, spark_type, file_key, file_type, note, file_bytes, created_at)
       VALUES ($1, gen_random_uuid(), 'photo', $2, 'image/png', $3, $4, $5)`,
      [userId, key, note, TINY_PNG.length, createdAt],
    );
  };

  it('names in sparks.csv and sparks.json only files the ZIP holds, when sparks are recorded while the files are written', async () => {
    const userId = randomUUID();
    await recordSpark(userId, 'first', new Date(Date.now() - 2 * 3_600_000).toISOString());
    await recordSpark(userId, 'second', new Date(Date.now() - 3_600_000).toISOString());
    let recordedMeanwhile = false;
    const openFile = async (key: string): Promise<Readable> => {
      if (!recordedMeanwhile) {
        recordedMeanwhile = true;
        // An offline capture dated before the files already read, and one taken now.
        await recordSpark(userId, 'offline', new Date(Date.now() - 86_400_000).toISOString());
        await recordSpark(userId, 'now', new Date().toISOString());
      }
      return storage.getStream(key);
    };
    const archive = clientArchive(userId, {
      repository: new ExportRepository(dataSource()),
      openFile,
      // The other services' parts play no role in the spark tables.
      otherServices: {
        account: {
          id: userId,
          email: 'mid-export@spark.test',
          created_at: new Date().toISOString(),
          user_metadata: { full_name: null, role: 'client', onboarding_completed_at: null, transformation_goal: null, assigned_coach_id: null },
        },
        ditl: { generation: null, html: null },
      } as OtherServicesData,
    });
    const zip = Buffer.concat(await archive.toArray());
    const names = await entryNames(zip);
    const tableRows = JSON.parse(await entryText(zip, 'sparks.json')) as { note: string; file: string | null }[];
    const csv = await entryText(zip, 'sparks.csv');
    const csvFiles = [...csv.matchAll(/"(sparks\/[^"]+)"/g)].map(([, file]) => file);

    expect(recordedMeanwhile).toBe(true);
    expect(tableRows.filter(({ file }) => file !== null && !names.has(file)).map(({ note }) => note)).toEqual([]);
    expect(csvFiles.filter((file) => !names.has(file))).toEqual([]);
    expect(tableRows.map(({ note }) => note)).toEqual(expect.arrayContaining(['first', 'second']));
    expect(tableRows.filter(({ file }) => file !== null)).toHaveLength(2);
  }, 60_000);
});
