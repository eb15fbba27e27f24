// The progress-service with its in-process export worker, forked by bench/export-memory.ts so that the
// figures are this process's memory alone. Reports its memory to the parent every BENCH_SAMPLE_MS.
import 'reflect-metadata';
import { startService } from '@spark/service-runtime';
import { progressService } from '../apps/progress-service/src/service';

const sampleMs = Number(process.env.BENCH_SAMPLE_MS ?? 500);

void startService({ ...progressService, env: process.env }, false).then((stop) => {
  process.send?.({ ready: true });
  const timer = setInterval(() => {
    const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
    process.send?.({ rss, heapUsed, external, arrayBuffers });
  }, sampleMs);
  process.once('SIGTERM', () => {
    clearInterval(timer);
    void stop().then(() => process.exit(0));
  });
});
