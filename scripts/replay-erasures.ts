// `npm run replay-erasures`: the restore step after `pg_restore` and before the apps start (docs/operations.md,
// "Backups and restore"). A backup taken before an account's erasure brings the account back; the bucket, which a
// restore does not roll back, notes every erasure, and this queues each noted account's deletion again through the
// auth-service's deletion machinery, so every part erases it once the apps run.
import 'reflect-metadata';
import { loadConfig, migrateEnv, storageEnv } from '@spark/config';
import { ensureDatabase, openMigrated } from '@spark/persistence';
import { ObjectStorage } from '@spark/storage';
import { authMigrations } from '../apps/auth-service/src/migrations';
import { replayErasures } from '../apps/auth-service/src/tooling';

async function main() {
  const config = loadConfig((env) => migrateEnv(env).extend(storageEnv(env).shape));
  await ensureDatabase(config.DATABASE_URL);
  const dataSource = await openMigrated({ url: config.DATABASE_URL, schema: 'auth', migrations: authMigrations, applicationName: 'replay-erasures' });
  const storage = new ObjectStorage(config);
  try {
    const { noted, queued } = await replayErasures(dataSource, storage);
    // Counts only: the notes name accounts, which the operator's terminal and its logs should not.
    console.log(`${noted} erasures noted in the bucket; ${queued} accounts the restored database still held queued for deletion again.`);
    console.log('Start the apps: each part erases them, and the Deletions tab shows the records complete.');
  } finally {
    await storage.close();
    await dataSource.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
