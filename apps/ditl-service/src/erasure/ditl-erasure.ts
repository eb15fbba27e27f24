import type { StorageConfig } from '@spark/config';
import type { AccountEraser } from '@spark/service-runtime';
import { ObjectStorage } from '@spark/storage';
import type { DataSource } from 'typeorm';
import { presentationPrefix } from '../worker/ditl-generator';

/** A client's Day in the Life: every generation (answers included), the coach's edits, and the presentations in S3. */
export function ditlEraser(dataSource: DataSource, storageConfig: StorageConfig): AccountEraser {
  const storage = new ObjectStorage(storageConfig);
  return {
    async erase({ userId }) {
      await storage.deleteUnder(presentationPrefix(userId));
      await dataSource.query(
        `WITH edits AS (DELETE FROM ditl.coach_edits WHERE user_id = $1)
         DELETE FROM ditl.generations WHERE user_id = $1`,
        [userId],
      );
    },
    close: () => storage.close(),
  };
}
