import type { StorageConfig } from '@spark/config';
import { exportPrefix } from '@spark/contracts';
import { type AccountEraser, erasedUsers } from '@spark/service-runtime';
import { incomingSparkPrefix, sparkMediaPrefix } from '@spark/media';
import { ObjectStorage, writeErasureNote } from '@spark/storage';
import type { DataSource } from 'typeorm';

const erasures = erasedUsers('progress');

/**
 * `notErasedSql` holds while `$1`, a client's id, has not been erased: a statement that would create their progress
 * row asks it, after `erasureLockSql` in the same transaction.
 */
export const { notErasedSql, erasureLockSql } = erasures;

/** Forgets the erasures of over a day ago: no request begun before one is still under way. */
export const forgetOldErasures = erasures.forgetOld;

/**
 * Everything the progress schema holds about a client (sparks, notes to and about them, onboarding answers,
 * pause days, progress, a coach's evolution preset for the address, export records) and their objects in S3: spark files under
 * `<userId>/`, uploads not yet recorded under `incoming/<userId>/`, data exports under `exports/<userId>/`.
 *
 * A capture or an onboarding may be under way meanwhile: a capture's file stored, its spark not yet recorded. So the
 * client is first marked erased, committed before anything else (the rest commits only when the part's job ends):
 * a write that creates the progress row either committed before the mark, and the rows pass takes it, or is refused
 * (`notErasedSql`: a capture then records nothing and deletes its file). Then the rows go, then the objects, which
 * takes the file of a capture that recorded just before, then the rows once more, for a spark that committed while
 * the first deletion ran. First of all, the erasure is noted in the bucket, which a database restore does not roll back.
 */
export function progressEraser(dataSource: DataSource, storageConfig: StorageConfig): AccountEraser {
  const storage = new ObjectStorage(storageConfig);
  const deleteRows = (userId: string, email: string) =>
    dataSource.query(
      `WITH sparks AS (DELETE FROM progress.sparks WHERE user_id = $1),
            notes AS (DELETE FROM progress.coach_notes WHERE user_id = $1),
            private_notes AS (DELETE FROM progress.coach_private_notes WHERE user_id = $1),
            onboarding AS (DELETE FROM progress.onboarding_data WHERE user_id = $1),
            preset AS (DELETE FROM progress.evolution_presets WHERE email = $2),
            exports AS (DELETE FROM progress.data_exports WHERE user_id = $1)
       DELETE FROM progress.user_progress WHERE user_id = $1`,
      [userId, email],
    );
  return {
    async erase({ userId, email }) {
      // Before anything goes: once a row is gone, only this note lets a restored backup's copy of it be erased again.
      await writeErasureNote(storage, { userId, email });
      await erasures.markErased(dataSource, userId);
      await deleteRows(userId, email);
      await storage.deleteUnder(sparkMediaPrefix(userId));
      await storage.deleteUnder(incomingSparkPrefix(userId));
      await storage.deleteUnder(exportPrefix(userId));
      await deleteRows(userId, email);
    },
    close: () => storage.close(),
  };
}
