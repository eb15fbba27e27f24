// `node dist/bench/lead-submission.js` (after `npm run build:node`): the product's lead submission
// (gateway → leads-service → PostgreSQL with outbox → two jobs) against the plain Fastify + pg +
// BullMQ baseline (docs/benchmarks.md), measured in the same run with autocannon (50 connections).
// Uses its own database (spark_bench) and Redis database 3; prints req/s, p50 and p99.
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import { recreateDatabase, waitUntilReady } from './support';
import { recordFigure } from './summary';

const root = join(__dirname, '..', '..');
const seconds = Number(process.env.BENCH_SECONDS ?? 15);
const redisUrl = `${(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379').replace(/\/\d*$/, '')}/3`;

let counter = 0;
async function load(url: string, title: string) {
  const result = await autocannon({
    url,
    title,
    connections: 50,
    duration: seconds,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    requests: [
      { setupRequest: (request) => ({ ...request, body: JSON.stringify({ email: `bench-${process.pid}-${counter++}@example.com`, role: 'client' }) }) },
    ],
  });
  const ok = result['2xx'];
  return { title, rps: Math.round(ok / seconds), p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors };
}

async function main() {
  const databaseUrl = await recreateDatabase('spark_bench');
  const redis = new Redis(redisUrl);
  await redis.flushdb();
  const children: ChildProcess[] = [];
  // Every lead comes from 127.0.0.1: lift the per-IP limit (the counting still runs and is measured).
  const env = {
    ...process.env,
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    BUS_PREFIX: 'bench',
    PORT: '18180',
    HOST: '127.0.0.1',
    RATE_LIMIT_FACTOR: '1000000',
  };
  try {
    const baseline = fork(join(root, 'dist/bench/baseline-server.js'), [databaseUrl, redisUrl, '18190', 'baseline'], { stdio: 'inherit' });
    children.push(baseline);
    await new Promise((resolve) => baseline.once('message', resolve));
    children.push(spawn(process.execPath, [join(root, 'dist/apps/leads-service/src/main.js')], { env, stdio: 'inherit' }));
    children.push(spawn(process.execPath, [join(root, 'dist/apps/gateway/src/main.js')], { env, stdio: 'inherit' }));
    await waitUntilReady('http://127.0.0.1:18180/health/ready');
    // Warm both paths (JIT, pools) before measuring.
    await load('http://127.0.0.1:18190/api/leads', 'warm-up').catch(() => undefined);
    const base = await load('http://127.0.0.1:18190/api/leads', 'baseline: fastify + pg + 2 BullMQ jobs');
    const product = await load('http://127.0.0.1:18180/api/leads', 'product: gateway → leads-service → pg + outbox → 2 jobs');
    for (const row of [base, product])
      console.log(`${row.title}\n  ${row.rps} req/s   p50 ${row.p50} ms   p99 ${row.p99} ms   non-2xx ${row.non2xx}   errors ${row.errors}`);
    const share = (100 * product.rps) / base.rps;
    const p99Ratio = product.p99 / base.p99;
    console.log(`product / baseline: ${share.toFixed(0)} % of throughput, p99 ×${p99Ratio.toFixed(2)}`);
    recordFigure({
      measure: 'lead submission, throughput against the monolith',
      figure: `${share.toFixed(0)} % (${product.rps} / ${base.rps} req/s)`,
      target: '≥ 60 %',
      met: share >= 60,
    });
    recordFigure({
      measure: 'lead submission, p99 against the monolith',
      figure: `×${p99Ratio.toFixed(2)} (${product.p99} / ${base.p99} ms)`,
      target: '≤ 2.5×',
      met: p99Ratio <= 2.5,
    });
    recordFigure({
      measure: 'lead submission, failed requests',
      figure: String(product.non2xx + product.errors),
      target: '0',
      met: product.non2xx + product.errors === 0,
    });
  } finally {
    for (const child of children) child.kill('SIGTERM');
    redis.disconnect();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
