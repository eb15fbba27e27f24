import type { StorageConfig } from '@spark/config';
import { exportPrefix } from '@spark/contracts';
import type { AccountEraser } from '@spark/service-runtime';
import { incomingSparkPrefix, sparkMediaPrefix } from '@spark/media';
import { ObjectStorage } from '@spark/storage';
import type { DataSource } from 'typeorm';

/**
 * Everything the progress schema holds about a client (sparks, notes to and about them, onboarding answers,
 * pause days, progress, a coach's evolution preset for the address, export records) and their objects in S3: spark files under
 * `<userId>/`, uploads not yet recorded under `incoming/<userId>/`, data exports under `exports/<userId>/`.
 */
export function progressEraser(dataSource: DataSource, storageConfig: StorageConfig): AccountEraser {
  const storage = new ObjectStorage(storageConfig);
  return {
    async erase({ userId, email }) {
      await storage.deleteUnder(sparkMediaPrefix(userId));
      await storage.deleteUnder(incomingSparkPrefix(userId));
      await storage.deleteUnder(exportPrefix(userId));
      await dataSource.query(
        `WITH sparks AS (DELETE FROM progress.sparks WHERE user_id = $1),
              notes AS (DELETE FROM progress.coach_notes WHERE user_id = $1),
              private_notes AS (DELETE FROM progress.coach_private_notes WHERE user_id = $1),
              onboarding AS (DELETE FROM progress.onboarding_data WHERE user_id = $1),
              preset AS (DELETE FROM progress.evolution_presets WHERE email = $2),
              exports AS (DELETE FROM progress.data_exports WHERE user_id = $1)
         DELETE FROM progress.user_progress WHERE user_id = $1`,
        [userId, email],
      );
    },
    close: () => storage.close(),
  };
}
