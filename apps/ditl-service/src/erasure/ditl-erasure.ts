import type { StorageConfig } from '@spark/config';
import type { AccountEraser } from '@spark/service-runtime';
import { ObjectStorage } from '@spark/storage';
import type { DataSource } from 'typeorm';
import { ditlErasures, GenerationsRepository } from '../generations/generations.repository';
import { presentationPrefix } from '../worker/ditl-generator';

/** Forgets the erasures of over a day ago: no request begun before one is still under way. */
export const forgetOldErasures = ditlErasures.forgetOld;

/**
 * A client's Day in the Life: every generation (answers included), the coach's edits, and the presentations in S3.
 * The rows go under the lock a request for a generation takes (`forUser`), with the client noted as erased: a request
 * under way either recorded its generation first, which this deletes, or finds the client erased and records nothing.
 */
export function ditlEraser(dataSource: DataSource, storageConfig: StorageConfig): AccountEraser {
  const storage = new ObjectStorage(storageConfig);
  const generations = new GenerationsRepository(dataSource.manager);
  return {
    // The rows first: a worker that writes a page after the pages are deleted then finds its generation gone (or
    // waits for this erasure to commit and finds it gone), and deletes the page it wrote (DitlGenerator).
    async erase({ userId }) {
      await generations.forUser(userId, (locked) => locked.eraseAll(userId));
      await storage.deleteUnder(presentationPrefix(userId));
    },
    close: () => storage.close(),
  };
}
