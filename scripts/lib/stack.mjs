// The whole product on one machine: infrastructure (found or started), then every app, then a
// wait for every app's readiness. Shared by `npm start` and the e2e harness.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { gatewayInternalPort, missingApps, startApps, stackEnvironment } from './apps.mjs';
import { startMailbox, startObjectStorage } from './local-services.mjs';
import { waitForHttp } from './network.mjs';
import { assertPortsFree, plannedPorts } from './ports.mjs';
import { databaseUrl, ensureDatabase, ensurePostgres } from './postgres.mjs';
import { stopProcesses } from './processes.mjs';
import { ensureRedis } from './redis.mjs';

// Variables that point a stack at outside services; an isolated stack (tests) ignores them.
const OUTSIDE_SERVICES = ['SMTP_URL', 'S3_ENDPOINT', 'S3_REGION', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'PUBLIC_URL'];

/** Throws a message naming what to run when the build output is missing. */
export function assertBuilt(root) {
  const missing = missingApps(root);
  if (!existsSync(join(root, 'dist', 'web', 'index.html'))) missing.push('web (dist/web/index.html)');
  if (missing.length) throw new Error(`not built: ${missing.join(', ')}. Run \`npm run build\` first.`);
}

/**
 * Starts a stack and returns `{ urls, processes, stop }`. Options: `root`, `env` (the caller's
 * environment), `ports`, `databaseName`, `recreateDatabase`, `busPrefix`, `isolated` (ignore
 * SMTP/S3 settings of `env`), `output` (see processes.mjs), `log` (progress messages), `nodeArgs` (extra node
 * flags for every app, e.g. --cpu-prof), `replicas` (of every app but the gateway).
 */
export async function startStack({
  root,
  env,
  ports,
  databaseName,
  recreateDatabase = false,
  busPrefix = 'spark',
  isolated = false,
  output = { console: true },
  log = () => undefined,
  nodeArgs = [],
  replicas = 1,
}) {
  const inherited = isolated ? Object.fromEntries(Object.entries(env).filter(([key]) => !OUTSIDE_SERVICES.includes(key))) : env;
  const dataRoot = join(root, '.data');
  const processes = [];
  const stop = () => stopProcesses(processes);
  try {
    assertBuilt(root);
    await assertPortsFree(plannedPorts(ports, inherited, replicas));
    const postgres = await ensurePostgres({ configuredUrl: env.DATABASE_URL, dataRoot, output });
    if (postgres.process) processes.push(postgres.process);
    log(`PostgreSQL: ${postgres.origin}`);
    const redis = await ensureRedis({ configuredUrl: env.REDIS_URL, dataRoot, output });
    if (redis.process) processes.push(redis.process);
    log(`Redis: ${redis.origin}`);

    // A configured DATABASE_URL names its database; the local servers get `spark`.
    const configuredName = postgres.origin === 'configured' ? new URL(postgres.url).pathname.slice(1) : '';
    const database = databaseName ?? (configuredName || 'spark');
    await ensureDatabase(postgres.url, database, { recreate: recreateDatabase });
    log(`database: ${database}${recreateDatabase ? ' (recreated)' : ''}`);

    const mailbox = inherited.SMTP_URL ? undefined : await startMailbox({ smtpPort: ports.smtp, webPort: ports.mailboxWeb, output });
    if (mailbox?.process) processes.push(mailbox.process);
    const storage = inherited.S3_ENDPOINT
      ? undefined
      : await startObjectStorage({ port: ports.s3, directory: join(dataRoot, isolated ? 's3-test' : 's3'), output });
    if (storage?.process) processes.push(storage.process);

    const appUrl = inherited.PUBLIC_URL || `http://${isolated ? '127.0.0.1' : 'localhost'}:${ports.gateway}`;
    const environment = stackEnvironment({
      inherited,
      root,
      databaseUrl: databaseUrl(postgres.url, database),
      redisUrl: redis.url,
      busPrefix,
      gatewayPort: ports.gateway,
      publicUrl: appUrl,
      smtpUrl: mailbox?.urls.smtp,
      s3Url: storage?.url,
    });
    const apps = startApps({ root, environment, gatewayPort: ports.gateway, output, nodeArgs, replicas });
    processes.push(...apps);
    const local = `http://127.0.0.1:${ports.gateway}`;
    // Every app, not the gateway alone: each service migrates its own schema as it starts, and a request that reaches
    // a service still migrating would find its tables missing.
    await Promise.all(
      apps.map((app) => waitForHttp(`${app.name} /health/ready`, `http://127.0.0.1:${app.healthPort}/health/ready`, { process: app, timeoutMs: 90_000 })),
    );
    const exited = apps.find((app) => app.exitCode !== undefined);
    if (exited) throw new Error(`${exited.name} exited with code ${exited.exitCode}`);

    const internal = `http://127.0.0.1:${gatewayInternalPort(ports.gateway)}`;
    const urls = {
      app: appUrl,
      apiDocs: `${internal}/api/docs`,
      metrics: `${internal}/metrics`,
      mailbox: mailbox?.urls.web,
      s3: storage?.url,
      health: `${local}/health/ready`,
    };
    return { urls, processes, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
