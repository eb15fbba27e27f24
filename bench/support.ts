// Shared by the benchmark scripts: a fresh database of their own and a readiness wait.
import { Client } from 'pg';

const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Drops and creates database `name` on the benchmark's PostgreSQL; returns its URL. */
export async function recreateDatabase(name: string): Promise<string> {
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Polls `url` until it answers 2xx (30 s at most). */
export async function waitUntilReady(url: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (await fetch(url).then((response) => response.ok, () => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} never became ready`);
}
