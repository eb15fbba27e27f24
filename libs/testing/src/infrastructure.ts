import { randomBytes } from 'node:crypto';
import { Socket } from 'node:net';
import { Client } from 'pg';
import type { StartedTestContainer } from 'testcontainers';

const containers: StartedTestContainer[] = [];

function answers(host: string, port: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const socket = new Socket();
    const finish = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000);
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
    socket.once('timeout', () => finish(false));
    socket.connect(port, host);
  });
}

/**
 * Where the real server for tests is: the env variable first, then the local default, then a
 * Testcontainers container where Docker exists. Tests never mock PostgreSQL or Redis.
 */
async function locate(envUrl: string | undefined, localUrl: string, image: string, port: number, env: Record<string, string> = {}) {
  if (envUrl) return envUrl;
  const local = new URL(localUrl);
  if (await answers(local.hostname, Number(local.port))) return localUrl;
  // Loaded only here: it is a large library, and every test file that imports this one would load it for nothing.
  const { GenericContainer } = await import('testcontainers');
  const container = await new GenericContainer(image).withEnvironment(env).withExposedPorts(port).start();
  containers.push(container);
  local.hostname = container.getHost();
  local.port = String(container.getMappedPort(port));
  return local.toString();
}

let postgresUrl: Promise<string> | undefined;
let redisUrl: Promise<string> | undefined;

export const testPostgresUrl = () =>
  (postgresUrl ??= locate(process.env.DATABASE_URL, 'postgres://postgres@127.0.0.1:5432/postgres', 'postgres:16-alpine', 5432, {
    POSTGRES_HOST_AUTH_METHOD: 'trust',
  }));

export const testRedisUrl = () => (redisUrl ??= locate(process.env.REDIS_URL, 'redis://127.0.0.1:6379', 'redis:7-alpine', 6379));

/** A random key namespace, so test files can share one Redis. */
export const uniquePrefix = (label = 't') => `${label}-${randomBytes(4).toString('hex')}`;

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A fresh, empty database per test file: tests never see each other's rows. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = new URL(await testPostgresUrl());
  const name = `spark_test_${randomBytes(5).toString('hex')}`;
  serverUrl.pathname = '/postgres';
  const admin = new Client({ connectionString: serverUrl.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new Client({ connectionString: serverUrl.toString() });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
