// `npm run build:node && node dist/bench/spark-capture.js`: issue 7's capture targets against real parts.
// Starts progress-service and the gateway from dist/ on their own database (spark_bench_sparks), Redis
// database 4 and an s3rver, then measures
//   1. the gateway's resident memory growth while one 50 MB video streams through POST /api/sparks;
//   2. capture latency (small photo) at 20 concurrent clients for BENCH_SECONDS (default 10): p50 / p95.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { JwtService } from '@nestjs/jwt';
import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER } from '@spark/contracts';
import { startTestS3 } from '@spark/testing';
import { recreateDatabase, waitUntilReady } from './support';

const root = join(__dirname, '..', '..');
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const JWT_SECRET = 'bench-secret-for-spark-capture';
const jwt = new JwtService({ secret: JWT_SECRET, signOptions: { algorithm: 'HS256' } });
const token = (id: string) =>
  jwt.sign({ sub: id, email: `${id.slice(0, 8)}@example.com`, role: 'client' }, { expiresIn: 3600, issuer: ACCESS_TOKEN_ISSUER, audience: ACCESS_TOKEN_AUDIENCE });

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(20 * 1024, 7)]);
const MP4_HEAD = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom', 'latin1'), Buffer.alloc(12)]);

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/** Streams a multipart body of `size` bytes without holding it in this process either. */
function videoUpload(size: number): { body: Readable; contentType: string } {
  const boundary = `bench${randomUUID()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="clientSparkId"\r\n\r\n${randomUUID()}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="timeZone"\r\n\r\nUTC\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="clip.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const chunk = Buffer.alloc(256 * 1024, 1);
  async function* parts() {
    yield head;
    yield MP4_HEAD;
    for (let sent = MP4_HEAD.length; sent < size; sent += chunk.length) yield chunk.subarray(0, Math.min(chunk.length, size - sent));
    yield tail;
  }
  return { body: Readable.from(parts()), contentType: `multipart/form-data; boundary=${boundary}` };
}

async function main() {
  const s3 = await startTestS3();
  const databaseUrl = await recreateDatabase('spark_bench_sparks');
  const env = { ...process.env, ...s3.env, NODE_ENV: 'development', LOG_LEVEL: 'warn', JWT_SECRET, DATABASE_URL: databaseUrl, REDIS_URL: 'redis://127.0.0.1:6379/4', BUS_PREFIX: `bench-${Date.now()}`, PORT: '18280', HOST: '127.0.0.1' };
  const children: ChildProcess[] = [
    spawn(process.execPath, [join(root, 'dist/apps/progress-service/src/main.js')], { env, stdio: 'inherit' }),
    spawn(process.execPath, [join(root, 'dist/apps/gateway/src/main.js')], { env, stdio: 'inherit' }),
  ];
  const gateway = children[1] as ChildProcess;
  const base = 'http://127.0.0.1:18280';
  try {
    await waitUntilReady(`${base}/health/ready`);
    const user = randomUUID();
    // Warm up: the first capture also creates the progress row.
    for (let i = 0; i < 5; i++) await capture(base, user);

    const before = rssMb(gateway.pid as number);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(gateway.pid as number))), 25);
    const upload = videoUpload(50 * 1024 * 1024);
    const started = Date.now();
    const response = await fetch(`${base}/api/sparks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token(user)}`, 'content-type': upload.contentType },
      body: upload.body,
      duplex: 'half',
    } as RequestInit);
    clearInterval(sampler);
    console.log(`50 MB video: HTTP ${response.status} in ${Date.now() - started} ms; gateway RSS ${before.toFixed(1)} → peak ${peak.toFixed(1)} MB (growth ${(peak - before).toFixed(1)} MB, target < 30 MB)`);

    const latencies: number[] = [];
    const users = Array.from({ length: 20 }, () => randomUUID());
    const deadline = Date.now() + seconds * 1000;
    let failures = 0;
    await Promise.all(
      users.map(async (id) => {
        while (Date.now() < deadline) {
          const t = performance.now();
          const status = await capture(base, id);
          latencies.push(performance.now() - t);
          if (status !== 201 && status !== 200) failures++;
        }
      }),
    );
    latencies.sort((a, b) => a - b);
    console.log(
      `capture, 20 concurrent clients, ${seconds} s: ${latencies.length} captures (${Math.round(latencies.length / seconds)}/s), ` +
        `p50 ${percentile(latencies, 50).toFixed(0)} ms, p95 ${percentile(latencies, 95).toFixed(0)} ms (target ≤ 150), failures ${failures}`,
    );
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    await s3.close();
  }
}

async function capture(base: string, userId: string): Promise<number> {
  const form = new FormData();
  form.append('clientSparkId', randomUUID());
  form.append('timeZone', 'UTC');
  form.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'spark.png');
  const response = await fetch(`${base}/api/sparks`, { method: 'POST', headers: { authorization: `Bearer ${token(userId)}` }, body: form });
  await response.arrayBuffer();
  return response.status;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
