// `npm run build:node && node dist/bench/slow-uploads.js`: issue 12's slow-upload target. Starts s3rver (a
// process of its own), auth-service and the gateway from dist/ on database spark_bench_uploads, a bus prefix
// of its own on REDIS_URL (default 127.0.0.1:6379) and port 18380, then sends BENCH_UPLOADS (default 100) deck
// uploads (PDF) of BENCH_UPLOAD_MB (default 12) MB at once, each trickling BENCH_KIB_PER_SECOND (default 512) KiB/s,
// two per admin: spark files go from browsers straight to storage, so the admins' uploads (decks, log images) are
// the only bodies the gateway still reads. An upload refused with 429 waits its Retry-After and tries again. It samples the gateway's resident memory every 100 ms and prints the peak against
// the memory limit of the gateway's container in deploy/base/gateway.yaml. UPLOAD_MEMORY_MB and the other
// gateway settings pass through from the environment (e.g. UPLOAD_MEMORY_MB=2000 to see the figure uncapped).
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { JwtService } from '@nestjs/jwt';
import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER } from '@spark/contracts';
import { deployedContainer, killAndWait } from '@spark/testing';
import { appEnvironment, forkDeployedApp, loadAverage, recreateDatabase, rssMb, startS3, waitUntilReady } from './support';

const uploads = Number(process.env.BENCH_UPLOADS ?? 100);
const uploadBytes = Number(process.env.BENCH_UPLOAD_MB ?? 12) * 1024 * 1024;
const bytesPerSecond = Number(process.env.BENCH_KIB_PER_SECOND ?? 512) * 1024;
const PORT = 18380;
const JWT_SECRET = 'bench-secret-for-slow-uploads';
const jwt = new JwtService({ secret: JWT_SECRET, signOptions: { algorithm: 'HS256' } });
const token = (id: string) =>
  jwt.sign(
    { sub: id, email: `${id.slice(0, 8)}@example.com`, role: 'admin' },
    { expiresIn: 3600, issuer: ACCESS_TOKEN_ISSUER, audience: ACCESS_TOKEN_AUDIENCE },
  );

const PDF_HEAD = Buffer.from('%PDF-1.7\n', 'latin1');
const CHUNK = Buffer.alloc(64 * 1024, 1);

/** The gateway container's memory limit in deploy/, in MiB. */
function gatewayMemoryLimitMb(): number {
  const limit = /^(\d+)Mi$/.exec(deployedContainer('gateway').resources?.limits?.memory ?? '')?.[1];
  if (!limit) throw new Error('deploy/base/gateway.yaml names no memory limit in Mi');
  return Number(limit);
}

interface Outcome {
  status: number;
  retryAfterSeconds: number;
}

/** One deck sent at a slow link's pace; stops sending as soon as the gateway has answered. */
function slowUpload(bearer: string): Promise<Outcome> {
  const boundary = `slow${randomUUID()}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="deck.pdf"\r\nContent-Type: application/pdf\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    let answered = false;
    const outgoing = request(
      {
        host: '127.0.0.1',
        port: PORT,
        path: '/api/investors/deck/full',
        method: 'PUT',
        headers: {
          authorization: `Bearer ${bearer}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': head.length + uploadBytes + tail.length,
        },
      },
      (response) => {
        answered = true;
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode ?? 0, retryAfterSeconds: Number(response.headers['retry-after'] ?? 0) }));
        outgoing.destroy();
      },
    );
    outgoing.on('error', (error) => (answered ? undefined : reject(error)));
    outgoing.write(head);
    outgoing.write(PDF_HEAD);
    let sent = PDF_HEAD.length;
    const pace = setInterval(
      () => {
        if (answered) return clearInterval(pace);
        if (sent >= uploadBytes) {
          clearInterval(pace);
          outgoing.end(tail);
          return;
        }
        const piece = CHUNK.subarray(0, Math.min(CHUNK.length, uploadBytes - sent));
        sent += piece.length;
        outgoing.write(piece);
      },
      (CHUNK.length / bytesPerSecond) * 1000,
    );
  });
}

async function main() {
  console.log(`before: ${loadAverage()}`);
  const limitMb = gatewayMemoryLimitMb();
  const s3 = await startS3();
  const databaseUrl = await recreateDatabase('spark_bench_uploads');
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const env = appEnvironment({ databaseUrl, redisUrl, busPrefix: `bench-uploads-${Date.now()}`, port: PORT }, { ...s3.env, JWT_SECRET });
  // As deployed, so the gateway's peak is the deployed gateway's.
  const start = (app: string) => forkDeployedApp(app, env);
  // auth-service records each deck upload in the audit log.
  const children = [start('auth-service'), start('gateway')];
  const gatewayPid = children[1]?.pid as number;
  try {
    await waitUntilReady(`http://127.0.0.1:${PORT}/health/ready`);
    const baseline = rssMb(gatewayPid);
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(gatewayPid))), 100);
    const people = Array.from({ length: Math.ceil(uploads / 2) }, () => token(randomUUID()));
    const statuses = new Map<number, number>();
    let refusals = 0;
    const started = Date.now();
    await Promise.all(
      Array.from({ length: uploads }, async (_, index) => {
        for (;;) {
          const outcome = await slowUpload(people[Math.floor(index / 2)] as string);
          if (outcome.status !== 429) return void statuses.set(outcome.status, (statuses.get(outcome.status) ?? 0) + 1);
          refusals++;
          await new Promise((resolve) => setTimeout(resolve, Math.max(1, outcome.retryAfterSeconds) * 1000 * (0.5 + Math.random())));
        }
      }),
    );
    clearInterval(sampler);
    const seconds = (Date.now() - started) / 1000;
    console.log(
      `${uploads} uploads of ${uploadBytes / 1024 / 1024} MB at ${bytesPerSecond / 1024} KiB/s each (UPLOAD_MEMORY_MB=${process.env.UPLOAD_MEMORY_MB ?? 'default'}): ` +
        `${[...statuses].map(([status, count]) => `${count} × HTTP ${status}`).join(', ')}; ${refusals} answers 429 waited out; ${seconds.toFixed(0)} s`,
    );
    console.log(
      `gateway RSS: ${baseline.toFixed(0)} MiB before, peak ${peak.toFixed(0)} MiB; limit ${limitMb} MiB (deploy/base/gateway.yaml): ` +
        `${peak < limitMb ? 'under the limit' : 'OVER THE LIMIT'} (${((peak / limitMb) * 100).toFixed(0)} %)`,
    );
    if (peak >= limitMb) process.exitCode = 1;
  } finally {
    // The apps first: on their way out they send S3 the deletions they still hold.
    await killAndWait(children, 'SIGTERM');
    await killAndWait([s3.child], 'SIGTERM');
    console.log(`after: ${loadAverage()}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
