// `node dist/bench/unit-of-work.js` (after `npm run build:node`): what a command's transaction costs on its own, the
// way the services run one (`inUnitOfWork` with a deadline: BEGIN, one insert, COMMIT), without the bus or HTTP in
// front of it. Runs BENCH_UNITS units (default 4 000) one at a time, then the same number 8 at a time, on its own
// database (spark_bench_uow), and prints units/s, p50 and p95.
import { performance } from 'node:perf_hooks';
import { createServiceDataSource, inUnitOfWork } from '@spark/persistence';
import { loadAverage, percentile, recreateDatabase } from './support';

const units = Number(process.env.BENCH_UNITS ?? 4_000);

async function main() {
  const dataSource = await createServiceDataSource({
    url: await recreateDatabase('spark_bench_uow'),
    schema: 'public',
    migrations: [],
  }).initialize();
  await dataSource.query('CREATE TABLE notes (id serial PRIMARY KEY, body text NOT NULL)');
  const unit = () => inUnitOfWork(dataSource, () => dataSource.query('INSERT INTO notes (body) VALUES ($1)', ['a note']), Date.now() + 5_000);

  const run = async (title: string, concurrency: number) => {
    const latencies: number[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next++ < units) {
          const sent = performance.now();
          await unit();
          latencies.push(performance.now() - sent);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    console.log(
      `${title}: ${Math.round(units / seconds)} units/s, p50 ${percentile(latencies, 50).toFixed(2)} ms, p95 ${percentile(latencies, 95).toFixed(2)} ms`,
    );
  };
  try {
    console.log(`before: ${loadAverage()}`);
    await run('warm-up', 1);
    await run('one at a time', 1);
    await run('8 at a time', 8);
    console.log(`after: ${loadAverage()}`);
  } finally {
    await dataSource.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
