// The product's processes and the environment each one gets on a local stack.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startProcess } from './processes.mjs';

// Every process of the product, in start order; the gateway last, as it fronts the rest.
// `healthOffset` gives each its internal HEALTH_PORT (gateway port + offset): health, and for the
// gateway also /metrics and /api/docs, which the public port never serves.
export const APPS = [
  { name: 'auth-service', healthOffset: 1 },
  { name: 'leads-service', healthOffset: 2 },
  { name: 'progress-service', healthOffset: 3 },
  { name: 'investor-service', healthOffset: 4 },
  { name: 'ditl-service', healthOffset: 5 },
  { name: 'content-service', healthOffset: 6 },
  { name: 'notifier', healthOffset: 7 },
  { name: 'gateway', healthOffset: 8 },
];

export const appEntry = (root, name) => join(root, 'dist', 'apps', name, 'src', 'main.js');

const GATEWAY = APPS.at(-1);
const SCALED_APPS = APPS.slice(0, -1);

/**
 * Every process to run with `replicas` of each app but the gateway (it owns the public port): name, app and
 * internal port. The first replica keeps the port of APPS; further replicas take the ports after the gateway's,
 * one block of SCALED_APPS.length per extra replica. Each ditl-service replica runs a DITL worker in-process.
 */
export function appProcesses(gatewayPort, replicas = 1) {
  const processes = [];
  for (let replica = 1; replica <= replicas; replica += 1) {
    SCALED_APPS.forEach((app, index) => {
      const healthPort = replica === 1 ? gatewayPort + app.healthOffset : gatewayPort + GATEWAY.healthOffset + (replica - 2) * SCALED_APPS.length + index + 1;
      processes.push({ name: replica === 1 ? app.name : `${app.name}#${replica}`, app: app.name, healthPort });
    });
  }
  processes.push({ name: GATEWAY.name, app: GATEWAY.name, healthPort: gatewayPort + GATEWAY.healthOffset });
  return processes;
}

/** The apps whose build output is missing (empty when the build is complete). */
export const missingApps = (root) => APPS.filter((app) => !existsSync(appEntry(root, app.name))).map((app) => app.name);

/**
 * The variables every app gets. Values already in `inherited` win over local defaults, so an
 * operator's NODE_ENV or MAIL_FROM is kept.
 */
export function stackEnvironment({ inherited, root, databaseUrl, redisUrl, busPrefix, gatewayPort, publicUrl, smtpUrl, s3Url }) {
  // Local storage and mailbox settings apply only when this stack started them.
  const localStorage = s3Url
    ? { S3_ENDPOINT: s3Url, S3_REGION: 'us-east-1', S3_BUCKET: 'sparks', S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' }
    : {};
  // A local stack hands an invited client's sign-in link back to the coach (docs/auth.md); never in production.
  const developmentShortcuts = inherited.NODE_ENV === 'production' ? {} : { AUTH_DEVELOPMENT_MODE: 'true' };
  const defaults = { NODE_ENV: 'development', PUBLIC_URL: publicUrl, ...developmentShortcuts, ...(smtpUrl ? { SMTP_URL: smtpUrl } : {}), ...localStorage };
  const chosen = Object.fromEntries(Object.entries(defaults).filter(([key]) => !inherited[key]));
  return {
    ...inherited,
    ...chosen,
    // These describe this stack, whatever the shell says.
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    BUS_PREFIX: busPrefix,
    PORT: String(gatewayPort),
    WEB_DIST: join(root, 'dist', 'web'),
  };
}

/** The gateway's internal port (metrics, API docs) on a stack whose public port is `gatewayPort`. */
export const gatewayInternalPort = (gatewayPort) => gatewayPort + APPS.find((app) => app.name === 'gateway').healthOffset;

/**
 * Spawns every app, `replicas` of each but the gateway, with `environment` (and `nodeArgs`, e.g. --cpu-prof);
 * returns their handles, the gateway last.
 */
export function startApps({ root, environment, gatewayPort, output, nodeArgs = [], replicas = 1 }) {
  return appProcesses(gatewayPort, replicas).map(({ name, app, healthPort }) => {
    const env = { ...environment, HEALTH_PORT: String(healthPort) };
    const args = ['--enable-source-maps', ...nodeArgs, appEntry(root, app)];
    const handle = startProcess(name, process.execPath, args, { env, cwd: root, output });
    handle.kind = 'app';
    handle.healthPort = healthPort;
    return handle;
  });
}
