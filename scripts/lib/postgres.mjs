// PostgreSQL for a local stack: the configured server, else the local one, else a private one
// under .data/postgres started from the machine's binaries.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { portAnswers, waitUntil } from './network.mjs';
import { runCommand, startProcess } from './processes.mjs';

const localUrl = (port) => `postgres://postgres@127.0.0.1:${port}/postgres`;

/** initdb/postgres from PATH, else from the newest /usr/lib/postgresql/<version>/bin. */
function postgresBinary(name) {
  try {
    return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim();
  } catch {
    const root = '/usr/lib/postgresql';
    const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
    const found = versions.map((version) => join(root, version, 'bin', name)).find((path) => existsSync(path));
    if (!found) throw new Error(`PostgreSQL is not installed (no ${name}); install it or set DATABASE_URL`);
    return found;
  }
}

// PostgreSQL refuses to run as root, so as root its binaries run as the postgres user.
function asPostgresUser(command, args) {
  if (process.getuid?.() !== 0) return [command, args];
  return ['runuser', ['-u', 'postgres', '--', command, ...args]];
}

async function canQuery(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function startPrivatePostgres(dataRoot, port, output) {
  const dataDir = join(dataRoot, 'postgres');
  // The postgres user must be able to reach the data directory, which only it may read.
  mkdirSync(dataRoot, { recursive: true, mode: 0o755 });
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (process.getuid?.() === 0) await runCommand('chown', ['-R', 'postgres:', dataDir]);
  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    const [command, args] = asPostgresUser(postgresBinary('initdb'), ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
    await runCommand(command, args, { quiet: true });
  }
  const [command, args] = asPostgresUser(postgresBinary('postgres'), [
    '-D',
    dataDir,
    '-p',
    String(port),
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'unix_socket_directories=',
  ]);
  // SIGINT is PostgreSQL's fast shutdown: it does not wait for idle clients.
  const server = startProcess('postgres', command, args, { output, stopSignal: 'SIGINT' });
  server.kind = 'infrastructure';
  await waitUntil('PostgreSQL', () => canQuery(localUrl(port)), { process: server, timeoutMs: 60_000 });
  return server;
}

/**
 * Where PostgreSQL is: `configuredUrl` when given, else 127.0.0.1:`port`, else a private server
 * it starts there (returned as `process`, for the caller to stop).
 */
export async function ensurePostgres({ configuredUrl, dataRoot, output, port = 5432 }) {
  if (configuredUrl) return { url: configuredUrl, origin: 'configured' };
  if (await portAnswers(port)) return { url: localUrl(port), origin: 'local' };
  const server = await startPrivatePostgres(dataRoot, port, output);
  return { url: localUrl(port), origin: `private (${join(dataRoot, 'postgres')})`, process: server };
}

/** `serverUrl` with its database replaced by `name`. */
export function databaseUrl(serverUrl, name) {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Creates database `name` when missing; with `recreate`, drops it first (test runs). */
export async function ensureDatabase(serverUrl, name, { recreate = false } = {}) {
  const client = new pg.Client({ connectionString: databaseUrl(serverUrl, 'postgres') });
  await client.connect();
  try {
    const quoted = `"${name.replaceAll('"', '""')}"`;
    if (recreate) await client.query(`DROP DATABASE IF EXISTS ${quoted} WITH (FORCE)`);
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await client.query(`CREATE DATABASE ${quoted}`);
  } finally {
    await client.end();
  }
}
