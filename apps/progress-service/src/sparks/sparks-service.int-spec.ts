import { randomUUID } from 'node:crypto';
import { incomingSparkKey, SparkMedia } from '@spark/media';
import { openMigrated } from '@spark/persistence';
import { ObjectStorage } from '@spark/storage';
import { TINY_PNG, useDatabaseAndS3 } from '@spark/testing';
import { progressMigrations } from '../migrations';
import { DatabaseTimeZones } from '../progress/database-time-zones';
import { SparksRepository } from './sparks.repository';
import { SparksService } from './sparks.service';

/** The real repository, whose recording commits and then loses its answer, as a connection dropped on the way back would. */
class AnswerLostAfterCommit extends SparksRepository {
  override async record(...args: Parameters<SparksRepository['record']>): ReturnType<SparksRepository['record']> {
    await super.record(...args);
    throw new Error('Connection terminated unexpectedly');
  }
}

describe('recording a spark whose outcome is unknown (real PostgreSQL and S3)', () => {
  const { dataSource, s3 } = useDatabaseAndS3((url) => openMigrated({ url, schema: 'progress', migrations: progressMigrations }));
  let storage: ObjectStorage;
  beforeAll(() => {
    storage = new ObjectStorage(s3().config);
  });
  afterAll(() => storage?.close());

  it('keeps the file of a spark that was recorded though its answer was lost', async () => {
    const userId = randomUUID();
    const service = new SparksService(new AnswerLostAfterCommit(dataSource()), new SparkMedia(storage), new DatabaseTimeZones(dataSource()), 1_000_000);
    const upload = { clientSparkId: randomUUID(), uploadId: randomUUID() };
    await storage.put({ key: incomingSparkKey(userId, upload), body: TINY_PNG, contentType: 'image/png' });

    await expect(service.record({ ...upload, userId, email: `${userId}@spark.test`, timeZone: 'UTC', note: null })).rejects.toThrow('Connection terminated');
    const [spark] = await dataSource().query<{ file_key: string }[]>(`SELECT file_key FROM progress.sparks WHERE user_id = $1`, [userId]);
    expect(spark).toBeDefined();
    expect(await storage.exists(spark?.file_key ?? '')).toBe(true);
  });
});
