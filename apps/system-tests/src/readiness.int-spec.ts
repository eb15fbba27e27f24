import { developmentSigningKeys } from '@spark/config';
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createLeadResponseSchema } from '@spark/contracts';
import { createLogger } from '@spark/logging';
import { RedisStreamsClient } from '@spark/messaging';
import {
  createTestDatabase,
  eventually,
  freePort,
  killAndWait,
  type PrivatePostgres,
  startPrivatePostgres,
  type TestDatabase,
  testRedisUrl,
  uniquePrefix,
} from '@spark/testing';
import { Client } from 'pg';
import { spawnApp } from './spawned-app';
import { leadCommand } from './lead-command';

const root = join(__dirname, '../../..');
const statusOf = async (port: number, path: string) => (await fetch(`http://127.0.0.1:${port}${path}`).catch(() => undefined))?.status;

/** Readiness as an orchestrator reads it, from separate OS processes: every dependency checked, liveness cheap. */
describe('readiness of the processes', () => {
  const children: ChildProcess[] = [];
  const start = async (app: string, env: NodeJS.ProcessEnv) => {
    const port = await freePort();
    children.push(spawnApp(app, { ...env, HEALTH_PORT: String(port) }));
    return port;
  };
  afterAll(() => killAndWait(children));

  describe('while PostgreSQL is stopped', () => {
    let postgres: PrivatePostgres;
    beforeAll(async () => {
      postgres = await startPrivatePostgres();
    }, 60_000);
    afterAll(async () => {
      await postgres.destroy();
    });

    it('a service and the DITL worker say not ready, stay alive, and are ready again once it is back', async () => {
      const env = { DATABASE_URL: postgres.url, REDIS_URL: await testRedisUrl(), BUS_PREFIX: uniquePrefix('ready') };
      const ports = [await start('leads-service/src/main', env), await start('ditl-service/src/worker-main', env)];
      for (const port of ports) await eventually(async () => (await statusOf(port, '/health/ready')) === 200, 60_000, 'ready at first');

      await postgres.stop();
      for (const port of ports) {
        await eventually(async () => (await statusOf(port, '/health/ready')) === 503, 20_000, 'not ready without PostgreSQL');
        expect(await statusOf(port, '/health/live')).toBe(200);
      }
      await postgres.start();
      for (const port of ports) await eventually(async () => (await statusOf(port, '/health/ready')) === 200, 30_000, 'ready again');
    }, 150_000);
  });

  describe('with RUN_MIGRATIONS=false, as behind a migration Job', () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await createTestDatabase();
    });
    afterAll(async () => {
      await database.drop();
    });

    it('waits, alive and not ready, without touching the schema, until `npm run migrate` has run, then serves', async () => {
      const env = { DATABASE_URL: database.url, REDIS_URL: await testRedisUrl(), BUS_PREFIX: uniquePrefix('migrate'), RUN_MIGRATIONS: 'false' };
      const port = await start('leads-service/src/main', env);
      await eventually(async () => (await statusOf(port, '/health/live')) === 200, 60_000, 'alive');
      expect(await statusOf(port, '/health/ready')).toBe(503);
      // It has created nothing: the schema is the migration step's to make.
      const db = new Client({ connectionString: database.url });
      await db.connect();
      const schemas = await db.query(`SELECT 1 FROM information_schema.schemata WHERE schema_name = 'leads'`);
      await db.end();
      expect(schemas.rowCount).toBe(0);
      expect(children.at(-1)?.exitCode).toBeNull();

      const migrate = spawn(process.execPath, ['-r', '@swc-node/register', join(root, 'scripts/migrate.ts')], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: database.url },
        stdio: 'ignore',
      });
      const [code] = (await once(migrate, 'exit')) as [number | null];
      expect(code).toBe(0);
      await eventually(async () => (await statusOf(port, '/health/ready')) === 200, 30_000, 'ready after the migration');

      const client = new RedisStreamsClient({
        app: 'gateway',
        signingKeys: developmentSigningKeys(),
        redisUrl: env.REDIS_URL,
        prefix: env.BUS_PREFIX,
        timeoutMs: 10_000,
        logger: createLogger('readiness-test', 'silent'),
      });
      await client.connect();
      try {
        expect(createLeadResponseSchema.parse(await client.request('leads.create', leadCommand('after-migrate@example.com'))).lead.email).toBe(
          'after-migrate@example.com',
        );
      } finally {
        await client.close();
      }
    }, 150_000);
  });
});
