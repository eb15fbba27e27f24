// Preloaded (`node -r dist/bench/probe.js`) into the processes a benchmark starts with an IPC channel.
// On { probe: 'start' } it resets its counters and samples process.memoryUsage() every 10 ms; on
// { probe: 'stop' } it answers { probe: 'report', memory, calls }: the peak of each memory figure, the
// figures at the RSS peak, and how many PostgreSQL queries and outgoing HTTP requests (S3) were made.
// It changes nothing in the app it watches.
import { subscribe } from 'node:diagnostics_channel';
import type { ClientRequest } from 'node:http';
import { s3OperationOf } from '@spark/storage';
import { Client } from 'pg';

type Memory = Pick<NodeJS.MemoryUsage, 'rss' | 'heapUsed' | 'heapTotal' | 'external' | 'arrayBuffers'>;
export interface ProbeReport {
  probe: 'report';
  memory: { before: Memory; atRssPeak: Memory; peaks: Memory };
  calls: { sql: number; http: Record<string, number> };
}

const snapshot = (): Memory => {
  const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
  return { rss, heapUsed, heapTotal, external, arrayBuffers };
};

let sql = 0;
let http: Record<string, number> = {};
let before = snapshot();
let atRssPeak = before;
let peaks = before;
let sampler: NodeJS.Timeout | undefined;

const query = Client.prototype.query as (...args: unknown[]) => unknown;
Client.prototype.query = function countedQuery(this: Client, ...args: unknown[]) {
  sql++;
  return query.apply(this, args);
} as typeof Client.prototype.query;

subscribe('http.client.request.start', (message) => {
  const { request } = message as { request: ClientRequest };
  const name = s3OperationOf(request.method, request.path);
  http[name] = (http[name] ?? 0) + 1;
});

function sample(): void {
  const now = snapshot();
  if (now.rss > atRssPeak.rss) atRssPeak = now;
  peaks = Object.fromEntries(Object.entries(peaks).map(([key, value]) => [key, Math.max(value, now[key as keyof Memory])])) as Memory;
}

if (process.send) {
  process.on('message', (message: { probe?: string }) => {
    if (message.probe === 'start') {
      sql = 0;
      http = {};
      before = atRssPeak = peaks = snapshot();
      clearInterval(sampler);
      sampler = setInterval(sample, 10);
    } else if (message.probe === 'stop') {
      clearInterval(sampler);
      sample();
      const report: ProbeReport = { probe: 'report', memory: { before, atRssPeak, peaks }, calls: { sql, http } };
      process.send?.(report);
    }
  });
  // The channel must not keep the app alive once it wants to exit; a benchmark that died takes its apps along.
  process.channel?.unref();
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}
