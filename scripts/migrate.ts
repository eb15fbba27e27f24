// `npm run migrate`: applies every service's pending migrations to its own schema. Every process also
// does this at start unless RUN_MIGRATIONS=false, where it waits for this step (a deploy's migration Job) instead.
import 'reflect-metadata';
import { loadConfig, migrateEnv } from '@spark/config';
import { ensureDatabase, openMigrated } from '@spark/persistence';
import type { ServiceDataSourceOptions } from '@spark/persistence';
import { authService } from '../apps/auth-service/src/service';
import { contentService } from '../apps/content-service/src/service';
import { ditlService } from '../apps/ditl-service/src/service';
import { investorService } from '../apps/investor-service/src/service';
import { leadsService } from '../apps/leads-service/src/service';
import { notifierMigrations } from '../apps/notifier/src/migrations';
import { progressService } from '../apps/progress-service/src/service';

const schemas: { schema: string; migrations: ServiceDataSourceOptions['migrations'] }[] = [
  ...[authService, leadsService, progressService, investorService, ditlService, contentService].map((service) => ({
    schema: service.name,
    migrations: service.migrations,
  })),
  { schema: 'notifier', migrations: notifierMigrations },
];

async function migrate() {
  const config = loadConfig(migrateEnv);
  await ensureDatabase(config.DATABASE_URL);
  for (const { schema, migrations } of schemas) {
    const dataSource = await openMigrated({ url: config.DATABASE_URL, schema, migrations, applicationName: 'migrate' });
    const applied: unknown[] = await dataSource.query(`SELECT 1 FROM "${schema}".migrations`);
    console.log(`${schema}: ${applied.length} migration(s) applied`);
    await dataSource.destroy();
  }
}

migrate().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
