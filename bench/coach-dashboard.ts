/**
 * Load for the coach dashboard against a running product (`npm start`):
 *   node -r @swc-node/register bench/coach-dashboard.ts --seed   (100 000 leads, 2 000 clients)
 *   COACH_TOKEN=… node -r @swc-node/register bench/coach-dashboard.ts
 * Prints p50/p95 of the leads page + counters (20 concurrent coaches) and of the attention-sorted client list.
 */
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';

const baseUrl = process.env.BENCH_URL ?? 'http://localhost:8080';
const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/spark';

async function seed(): Promise<void> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  await db.query(`INSERT INTO leads.leads (id, email, role, approval_status, user_created, created_at)
    SELECT gen_random_uuid(), 'bench-' || n || '-' || $1 || '@spark.test', (ARRAY['client','coach','investor'])[1 + n % 3],
           (ARRAY['pending','approved','rejected'])[1 + n % 3], n % 7 = 0, now() - n * interval '1 minute'
    FROM generate_series(1, 100000) n`, [randomUUID().slice(0, 8)]);
  await db.query(`INSERT INTO progress.user_progress (user_id, email, full_name, evolution_start_date, evolution_end_date, last_spark_date, spark_count, streak_count)
    SELECT gen_random_uuid(), 'client-' || n || '@spark.test', 'Client ' || n, current_date - n % 90, current_date - n % 90 + 90,
           current_date - n % 9, n % 50, n % 12 FROM generate_series(1, 2000) n`);
  await db.query('VACUUM ANALYZE leads.leads');
  await db.query('VACUUM ANALYZE progress.user_progress');
  await db.end();
}

async function measure(label: string, concurrency: number, requests: number, paths: string[]): Promise<void> {
  const headers = { authorization: `Bearer ${process.env.COACH_TOKEN ?? ''}` };
  const timings: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < requests) {
      next++;
      const started = performance.now();
      const responses = await Promise.all(paths.map((path) => fetch(`${baseUrl}${path}`, { headers })));
      if (responses.some((response) => !response.ok)) throw new Error(`${label}: HTTP ${responses.map((response) => response.status).join(',')}`);
      await Promise.all(responses.map((response) => response.arrayBuffer()));
      timings.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  timings.sort((a, b) => a - b);
  const at = (quantile: number) => timings[Math.min(timings.length - 1, Math.floor(quantile * timings.length))]?.toFixed(1);
  console.log(`${label}: ${timings.length} requests, ${concurrency} concurrent, p50 ${at(0.5)} ms, p95 ${at(0.95)} ms`);
}

async function main(): Promise<void> {
  if (process.argv.includes('--seed')) return seed();
  await measure('leads page + counters', 20, 2000, ['/api/coach/leads?limit=25', '/api/coach/overview']);
  await measure('clients by attention', 20, 1000, ['/api/coach/clients?sort=attention&limit=25']);
}

void main();
