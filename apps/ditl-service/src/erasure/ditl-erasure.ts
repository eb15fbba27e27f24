import type { StorageConfig } from '@spark/config';
import type { AccountEraser } from '@spark/service-runtime';
import { ObjectStorage } from '@spark/storage';
import type { DataSource } from 'typeorm';
import { presentationPrefix } from '../worker/ditl-generator';

/** A client's Day in the Life: every generation (answers included), the coach's edits, and the presentations in S3. */
export function ditlEraser(dataSource: DataSource, storageConfig: StorageConfig): AccountEraser {
  const storage = new ObjectStorage(storageConfig);
  return {
    // The rows first: a worker that writes a page after the pages are deleted then finds its generation gone (or
    // waits for this erasure to commit and finds it gone), and deletes the page it wrote (DitlGenerator).
    async erase({ userId }) {
      await dataSource.query(
        `WITH edits AS (DELETE FROM ditl.coach_edits WHERE user_id = $1)
         DELETE FROM ditl.generations WHERE user_id = $1`,
        [userId],
      );
      await storage.deleteUnder(presentationPrefix(userId));
    },
    close: () => storage.close(),
  };
}
