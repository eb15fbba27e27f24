import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { exportPrefix } from '@spark/contracts';
import { openMigrated } from '@spark/persistence';
import { ObjectStorage } from '@spark/storage';
import { useDatabaseAndS3 } from '@spark/testing';
import { progressMigrations } from '../migrations';
import { ExportRequests } from './export.handler';
import { removeExportsMadeBefore } from './export-sweep';

// Each archive is a full copy of a client's files, outside their storage quota: kept for good, the archives of
// repeated exports would pile up without end, and an old one would still be handed out as a fresh link.
describe('the sweep of data exports past their keeping (real PostgreSQL and S3)', () => {
  const { dataSource, s3 } = useDatabaseAndS3((url) => openMigrated({ url, schema: 'progress', migrations: progressMigrations }));
  let storage: ObjectStorage;
  beforeAll(() => {
    storage = new ObjectStorage(s3().config);
  });
  afterAll(() => storage?.close());
  const userId = randomUUID();

  /** An export as the worker leaves it: its archive in the bucket and its row ready. */
  const readyExport = async () => {
    const id = randomUUID();
    const key = `${exportPrefix(userId)}${id}.zip`;
    await storage.put({ key, body: Buffer.from('PK archive'), contentType: 'application/zip' });
    await dataSource().query(`INSERT INTO progress.data_exports (id, user_id, status, object_key, ready_at) VALUES ($1, $2, 'ready', $3, now())`, [
      id,
      userId,
      key,
    ]);
    return { id, key };
  };

  it('forgets the exports made before the cutoff and deletes their archives, keeping the newer ones', async () => {
    const old = await readyExport();
    const older = await readyExport();
    const neverFinished = randomUUID();
    await dataSource().query(`INSERT INTO progress.data_exports (id, user_id) VALUES ($1, $2)`, [neverFinished, userId]);
    const strayArchive = `${exportPrefix(userId)}${randomUUID()}.zip`;
    await storage.put({ key: strayArchive, body: Buffer.from('PK partial'), contentType: 'application/zip' });
    // Object times have whole seconds.
    await sleep(1_100);
    const cutoff = new Date();
    await sleep(1_100);
    const recent = await readyExport();

    expect(await removeExportsMadeBefore(cutoff, { dataSource: dataSource(), storage })).toEqual({ exports: 3, neverFinished: 1, archives: 3 });

    const rows: { id: string }[] = await dataSource().query(`SELECT id FROM progress.data_exports WHERE user_id = $1`, [userId]);
    expect(rows.map((row) => row.id)).toEqual([recent.id]);
    expect({
      old: (await storage.exists(old.key)) || (await storage.exists(older.key)),
      stray: await storage.exists(strayArchive),
      recent: await storage.exists(recent.key),
    }).toEqual({
      old: false,
      stray: false,
      recent: true,
    });
    const requests = new ExportRequests(dataSource(), { kick: () => undefined }, storage);
    await expect(requests.status({ userId, exportId: old.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await requests.status({ userId, exportId: recent.id })).status).toBe('ready');
  });
});
