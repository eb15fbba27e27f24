// `npm run build:node && node dist/bench/spark-capture.js`: issue 7's capture targets against real parts.
// Starts s3rver (a child process of its own), progress-service and the gateway from dist/ on their own database
// (spark_bench_sparks), Redis database 4, port 18280, then measures
//   1. the resident memory growth of the gateway and of the progress service while a 50 MB video is captured
//      (BENCH_UPLOADS times, default 3; the gateway's first is the target figure), with the heap / ArrayBuffer breakdown;
//   1b. the same for a 12 MP phone photo (a 5 MB JPEG, Exif orientation 6), which the progress service decodes, turns
//      upright and encodes again to remove its metadata (BENCH_UPLOADS times);
// A capture is what the web app does: POST /api/sparks/uploads for a signed URL, the file PUT straight to s3rver,
// POST /api/sparks, which the progress service answers once it has checked, cleaned and stored the file.
//   2. one small-photo capture (a real 18 KiB PNG) at a time: latency without queueing and the CPU each process spends on
//      it; then its round trips: S3 requests and SQL queries (counted in the processes by bench/probe.ts) and Redis
//      commands (the server's command counts before and after: nothing else may use this Redis meanwhile);
//   3. capture latency at 20 concurrent clients for BENCH_SECONDS (default 10) after a 1 s warm-up: p50 / p95 / p99
//      (and the mean and p95 of each step: grant, PUT, record), captures/s, failures, and the CPU each process spent
//      per capture — closed-loop (a saturation test), then paced at 20–110 captures/s in all (each client on a
//      schedule) to show the pace up to which p95 ≤ 150 ms holds.
// The machine's load average is printed before and after: on a shared 2-core machine it decides the figures.
// BENCH_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=.data/prof") is passed to the gateway and progress-service;
// BENCH_PACED=0 skips the paced runs, for quick comparisons of the saturated figure.
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { JwtService } from '@nestjs/jwt';
import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER, revocationMarkersRetainedKey, sparkUploadGrantSchema } from '@spark/contracts';
import { killAndWait } from '@spark/testing';
import { Redis } from 'ioredis';
import sharp from 'sharp';
import { cpuPer, measureCpu, productProcesses } from './process-cpu';
import type { ProbeReport } from './probe';
import { measureStages } from './stage-latency';
import { appEnvironment, forkDeployedApp, loadAverage, percentile, recreateDatabase, rssMb, startS3, waitUntilReady } from './support';
import { recordFigure } from './summary';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const uploads = Number(process.env.BENCH_UPLOADS ?? 3);
const CLIENTS = 20;
// Paced runs, in captures per second across all clients (20 = each client once a second).
const PACES = process.env.BENCH_PACED === '0' ? [] : [20, 50, 80, 110];
const cores = availableParallelism();
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/4';
const JWT_SECRET = 'bench-secret-for-spark-capture';
const jwt = new JwtService({ secret: JWT_SECRET, signOptions: { algorithm: 'HS256' } });
const token = (id: string) =>
  jwt.sign(
    { sub: id, email: `${id.slice(0, 8)}@example.com`, role: 'client' },
    { expiresIn: 3600, issuer: ACCESS_TOKEN_ISSUER, audience: ACCESS_TOKEN_AUDIENCE },
  );

// A real photo (the gateway decodes and re-encodes every one): 80×80 of noise, 18 KiB as PNG.
let PNG = Buffer.alloc(0);
const twelveMegapixelPhoto = () =>
  sharp({ create: { width: 4032, height: 3024, channels: 3, background: '#4a7', noise: { type: 'gaussian', mean: 120, sigma: 25 } } })
    .jpeg({ quality: 85 })
    .withExif({ IFD0: { Orientation: '6' } })
    .toBuffer();
const photoOfNoise = () =>
  sharp({ create: { width: 80, height: 80, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
    .png()
    .toBuffer();
// A video's boxes as a camera writes them: ftyp, then one mdat holding the rest (streamed through the location scrubber).
const mp4Head = (size: number) => {
  const head = Buffer.alloc(32);
  head.writeUInt32BE(24, 0);
  head.write('ftypisom', 4, 'latin1');
  head.writeUInt32BE(size - 24, 24);
  head.write('mdat', 28, 'latin1');
  return head;
};

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const machineBusyMs = () => {
  const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0]?.trim().split(/\s+/) ?? [];
  const values = ticks.map(Number);
  return (values.reduce((sum, value) => sum + value, 0) - (values[3] ?? 0) - (values[4] ?? 0)) * 10;
};

/** A video of `size` bytes as a stream, without holding it in this process either. */
function videoBody(size: number): Readable {
  const chunk = Buffer.alloc(256 * 1024, 1);
  const videoHead = mp4Head(size);
  async function* parts() {
    yield videoHead;
    for (let sent = videoHead.length; sent < size; sent += chunk.length) yield chunk.subarray(0, Math.min(chunk.length, size - sent));
  }
  return Readable.from(parts());
}

// Plain node:http on kept-alive sockets: the load generator shares the 2 cores with the system under test.
const agent = new Agent({ keepAlive: true, maxSockets: 2 * CLIENTS });

function call(url: string, method: string, headers: Record<string, string | number>, body: Buffer | Readable): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method, agent, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
    });
    outgoing.on('error', reject);
    if (Buffer.isBuffer(body)) outgoing.end(body);
    else body.pipe(outgoing);
  });
}

const json = (bearer: string, body: unknown) => {
  const bytes = Buffer.from(JSON.stringify(body));
  return { headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', 'content-length': bytes.length }, bytes };
};

/** How long each of a capture's three steps took, in ms. */
type StepTimes = { grant: number; put: number; record: number };

/**
 * One capture as the web app makes it; the recording's status, or the first failing step's. `steps`, if given,
 * receives the time of each step of a capture that got through all three.
 */
async function capture(
  port: number,
  bearer: string,
  file: { bytes: number; contentType: string; body: () => Buffer | Readable } = smallPhoto(),
  steps?: StepTimes[],
): Promise<number> {
  const clientSparkId = randomUUID();
  const started = performance.now();
  const asked = json(bearer, { clientSparkId, bytes: file.bytes, contentType: file.contentType });
  const granted = await call(`http://127.0.0.1:${port}/api/sparks/uploads`, 'POST', asked.headers, asked.bytes);
  if (granted.status !== 201) return granted.status;
  const grant = sparkUploadGrantSchema.parse(JSON.parse(granted.text));
  const grantedAt = performance.now();
  const stored = await call(grant.url, 'PUT', { ...grant.headers, 'content-length': file.bytes }, file.body());
  if (stored.status !== 200) return stored.status;
  const storedAt = performance.now();
  const recorded = json(bearer, { clientSparkId, uploadId: grant.uploadId, timeZone: 'UTC' });
  const status = (await call(`http://127.0.0.1:${port}/api/sparks`, 'POST', recorded.headers, recorded.bytes)).status;
  steps?.push({ grant: grantedAt - started, put: storedAt - grantedAt, record: performance.now() - storedAt });
  return status;
}

/** Each step's mean and p95 in ms, as "grant mean … / p95 …, PUT to S3 mean … / p95 …, record mean … / p95 …". */
function describeSteps(steps: StepTimes[]): string {
  const names: Record<keyof StepTimes, string> = { grant: 'grant', put: 'PUT to S3', record: 'record' };
  return (Object.keys(names) as (keyof StepTimes)[])
    .map((step) => {
      const times = steps.map((taken) => taken[step]).sort((a, b) => a - b);
      const mean = times.reduce((sum, ms) => sum + ms, 0) / times.length;
      return `${names[step]} mean ${mean.toFixed(1)} / p95 ${percentile(times, 95).toFixed(1)}`;
    })
    .join(', ');
}

const smallPhoto = () => ({ bytes: PNG.length, contentType: 'image/png', body: () => PNG });

function probe(child: ChildProcess, action: 'start'): void;
function probe(child: ChildProcess, action: 'stop'): Promise<ProbeReport>;
function probe(child: ChildProcess, action: 'start' | 'stop'): void | Promise<ProbeReport> {
  if (action === 'start') return void child.send({ probe: 'start' });
  return new Promise((resolve) => {
    const onMessage = (message: { probe?: string }) => {
      if (message.probe !== 'report') return;
      child.off('message', onMessage);
      resolve(message as ProbeReport);
    };
    child.on('message', onMessage);
    child.send({ probe: 'stop' });
  });
}

/**
 * Calls per command name so far, as the Redis server counts them (those run by scripts included). Read instead of
 * watching MONITOR, whose stream ioredis can mistake for the answer to a command and then crash on.
 */
async function commandCalls(redis: Redis): Promise<Record<string, number>> {
  const stats = await redis.info('commandstats');
  return Object.fromEntries([...stats.matchAll(/^cmdstat_([\w|-]+):calls=(\d+)/gm)].map(([, name, calls]) => [String(name).toUpperCase(), Number(calls)]));
}

async function main() {
  PNG = await photoOfNoise();
  console.log(`before: ${loadAverage()}`);
  const s3 = await startS3();
  const databaseUrl = await recreateDatabase('spark_bench_sparks');
  const port = 18280;
  // Each client captures far more often than a person: lift the per-user grant limit (the counting still runs and is measured).
  const busPrefix = `bench-${Date.now()}`;
  const env = appEnvironment({ databaseUrl, redisUrl: REDIS_URL, busPrefix, port }, { ...s3.env, JWT_SECRET, RATE_LIMIT_FACTOR: '1000000' });
  const extraArgs = ['-r', join(__dirname, 'probe.js'), ...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean)];
  // As deployed, so the memory figures are the deployed processes'. Each serves its metrics on its health port, for
  // where a capture's time went.
  const healthPorts = { gateway: 18281, 'progress-service': 18282 };
  const start = (app: keyof typeof healthPorts) => forkDeployedApp(app, { ...env, HEALTH_PORT: String(healthPorts[app]) }, extraArgs);
  const metricsPages = Object.entries(healthPorts).map(([name, healthPort]) => ({ name, url: `http://127.0.0.1:${healthPort}/metrics` }));
  const service = start('progress-service');
  const gateway = start('gateway');
  const children = [service, gateway];
  try {
    await waitUntilReady(`http://127.0.0.1:${port}/health/ready`);
    // No auth-service runs here: the benchmark issues the tokens, and says, as the auth-service does, that Redis holds
    // every revocation marker.
    const redis = new Redis(REDIS_URL);
    await redis.set(revocationMarkersRetainedKey(busPrefix), 'set by the benchmark');
    const user = randomUUID();
    // Warm up: the first capture also creates the progress row.
    for (let i = 0; i < 20; i++) await capture(port, token(user));

    // Memory growth of both processes while one file is captured: the gateway only signs and forwards, the
    // progress service reads the upload back from S3, cleans it and stores it.
    const measured = [
      { name: 'gateway', child: gateway },
      { name: 'progress-service', child: service },
    ];
    const firstBefore = Object.fromEntries(measured.map(({ name, child }) => [name, rssMb(child.pid as number)]));
    const captureMeasured = async (label: string, run: number, file: Parameters<typeof capture>[2]) => {
      const before = Object.fromEntries(measured.map(({ name, child }) => [name, rssMb(child.pid as number)]));
      const peak = { ...before };
      const sampler = setInterval(() => measured.forEach(({ name, child }) => (peak[name] = Math.max(peak[name] ?? 0, rssMb(child.pid as number)))), 25);
      measured.forEach(({ child }) => probe(child, 'start'));
      const started = Date.now();
      const { result: status, cpuMs } = await measureCpu({ service: [service.pid as number] }, () => capture(port, token(user), file));
      const elapsed = Date.now() - started;
      clearInterval(sampler);
      const reports = await Promise.all(measured.map(({ child }) => probe(child, 'stop')));
      const growth = (name: string) => (peak[name] ?? 0) - (before[name] ?? 0);
      console.log(
        `${label} #${run}: HTTP ${status} in ${elapsed} ms, progress-service CPU ${cpuMs.service} ms\n` +
          measured
            .map(({ name }, index) => {
              const { memory, calls } = reports[index] as ProbeReport;
              const at = (key: keyof typeof memory.before) => `${mb(memory.before[key])} → ${mb(memory.atRssPeak[key])} (peak ${mb(memory.peaks[key])})`;
              return (
                `  ${name}: RSS ${before[name]?.toFixed(1)} → peak ${peak[name]?.toFixed(1)} MB (growth ${growth(name).toFixed(1)} MB` +
                `${run > 1 ? `, ${((peak[name] ?? 0) - (firstBefore[name] ?? 0)).toFixed(1)} over the first baseline` : ''}); at the RSS peak, MB: ` +
                `heapUsed ${at('heapUsed')}, arrayBuffers ${at('arrayBuffers')}; S3 requests ${JSON.stringify(calls.http)}`
              );
            })
            .join('\n'),
      );
      return { gateway: growth('gateway'), service: growth('progress-service') };
    };
    const VIDEO_BYTES = 50 * 1024 * 1024;
    for (let run = 1; run <= uploads; run++) {
      const growth = await captureMeasured('50 MB video', run, { bytes: VIDEO_BYTES, contentType: 'video/mp4', body: () => videoBody(VIDEO_BYTES) });
      if (run === 1) {
        recordFigure({
          measure: 'capture, gateway memory growth for a 50 MB video',
          figure: `${growth.gateway.toFixed(1)} MB`,
          target: '< 30 MB',
          met: growth.gateway < 30,
        });
        recordFigure({ measure: 'capture, progress-service memory growth for a 50 MB video', figure: `${growth.service.toFixed(1)} MB` });
      }
    }
    const photo = await twelveMegapixelPhoto();
    for (let run = 1; run <= uploads; run++) {
      await captureMeasured(`12 MP photo (${mb(photo.length)} MB JPEG)`, run, { bytes: photo.length, contentType: 'image/jpeg', body: () => photo });
    }

    // CPU each process spends per capture (pids read anew: the pool opens PostgreSQL connections on demand).
    const processes = () =>
      productProcesses(
        [
          { name: 'gateway', pid: gateway.pid as number },
          { name: 'progress-service', pid: service.pid as number },
          { name: 's3rver', pid: s3.child.pid as number },
        ],
        databaseUrl,
        REDIS_URL,
      );

    // One capture at a time: the latency without queueing, and the CPU each process spends on one capture.
    const alone = token(randomUUID());
    await capture(port, alone);
    const sequential: number[] = [];
    const { cpuMs: sequentialCpu } = await measureCpu(await processes(), async () => {
      for (let i = 0; i < 200; i++) {
        const t = performance.now();
        await capture(port, alone);
        sequential.push(performance.now() - t);
      }
    });
    sequential.sort((a, b) => a - b);
    console.log(
      `one capture at a time (200): p50 ${percentile(sequential, 50).toFixed(1)} ms, p95 ${percentile(sequential, 95).toFixed(1)} ms; ` +
        `CPU ms per capture: ${cpuPer(sequentialCpu, sequential.length)}`,
    );

    // Round trips of one capture, counted over a few sequential ones.
    const commandsBefore = await commandCalls(redis);
    const counted = 20;
    children.forEach((child) => probe(child, 'start'));
    for (let i = 0; i < counted; i++) await capture(port, alone);
    const [serviceCalls, gatewayCalls] = await Promise.all(children.map((child) => probe(child, 'stop')));
    const commandsAfter = await commandCalls(redis);
    redis.disconnect();
    const redisCommands = Object.fromEntries(
      Object.entries(commandsAfter)
        .map(([name, calls]) => [name, calls - (commandsBefore[name] ?? 0)] as const)
        .filter(([name, calls]) => calls > 0 && name !== 'INFO'),
    );
    const perCapture = (counts: Record<string, number>) =>
      Object.entries(counts)
        .map(([name, count]) => `${name} ${(count / counted).toFixed(2)}`)
        .join(', ');
    console.log(
      `round trips per capture (mean of ${counted}, the load generator's grant, PUT and record not counted): ` +
        `S3 ${perCapture(serviceCalls?.calls.http ?? {})} (progress-service), ${perCapture(gatewayCalls?.calls.http ?? {})} (gateway); ` +
        `SQL queries ${((serviceCalls?.calls.sql ?? 0) / counted).toFixed(2)} (progress-service) + ${((gatewayCalls?.calls.sql ?? 0) / counted).toFixed(2)} (gateway); ` +
        `Redis (incl. the blocking reads and the service's housekeeping) ${perCapture(redisCommands)}`,
    );

    const bearers = Array.from({ length: CLIENTS }, () => token(randomUUID()));
    // Closed loop without a rate (each client captures again the moment the last one answered: a saturation
    // test); with one, each client captures on a schedule (every CLIENTS / rate s, random phase).
    const loop = async (
      until: number,
      { latencies = [], capturesPerSecond, steps }: { latencies?: number[]; capturesPerSecond?: number; steps?: StepTimes[] } = {},
    ) => {
      let failures = 0;
      const intervalMs = capturesPerSecond ? (CLIENTS / capturesPerSecond) * 1000 : 0;
      const started = performance.now();
      await Promise.all(
        bearers.map(async (bearer) => {
          let scheduled = started + Math.random() * intervalMs;
          while (Date.now() < until) {
            await new Promise((resolve) => setTimeout(resolve, Math.max(0, scheduled - performance.now())));
            scheduled += intervalMs;
            const t = performance.now();
            const status = await capture(port, bearer, smallPhoto(), steps).catch(() => 0);
            latencies.push(performance.now() - t);
            if (status !== 201) failures++;
          }
        }),
      );
      return failures;
    };
    await loop(Date.now() + 1000); // warm-up: every client's progress row, the connection pools at full size
    const machineBefore = machineBusyMs();
    const latencies: number[] = [];
    const steps: StepTimes[] = [];
    const processesNow = await processes();
    const {
      result: { result: failures, cpuMs },
      stages,
    } = await measureStages(metricsPages, () => measureCpu(processesNow, () => loop(Date.now() + seconds * 1000, { latencies, steps })));
    const machineMs = machineBusyMs() - machineBefore;
    const ours = Object.values(cpuMs).reduce((sum, ms) => sum + ms, 0);
    latencies.sort((a, b) => a - b);
    console.log(
      `capture, ${CLIENTS} concurrent clients, ${seconds} s: ${latencies.length} captures (${Math.round(latencies.length / seconds)}/s), ` +
        `p50 ${percentile(latencies, 50).toFixed(0)} ms, p95 ${percentile(latencies, 95).toFixed(0)} ms (target ≤ 150), p99 ${percentile(latencies, 99).toFixed(0)} ms, ` +
        `failures ${failures}\n  CPU ms per capture: ${cpuPer(cpuMs, latencies.length)}; ` +
        `everything else on the machine ${((machineMs - ours) / latencies.length).toFixed(2)} (machine busy ${((machineMs / (seconds * 1000 * cores)) * 100).toFixed(0)} % of ${cores} cores)\n` +
        `  where a capture's time went, ms: ${describeSteps(steps)}\n` +
        `  and by each process's own clock:\n    ${stages.join('\n    ')}`,
    );
    const p95 = percentile(latencies, 95);
    recordFigure({
      measure: `capture, ${CLIENTS} clients saturated`,
      figure: `p95 ${p95.toFixed(0)} ms, ${Math.round(latencies.length / seconds)}/s, ${failures} failed`,
      target: 'p95 ≤ 150 ms',
      met: p95 <= 150 && failures === 0,
    });
    // Capacity: the highest pace at which 20 clients still get p95 ≤ 150 ms.
    for (const rate of PACES) {
      const paced: number[] = [];
      const pacedFailures = await loop(Date.now() + Math.max(5, seconds / 2) * 1000, { latencies: paced, capturesPerSecond: rate });
      paced.sort((a, b) => a - b);
      const p95 = percentile(paced, 95);
      console.log(
        `  paced at ${rate} captures/s (each client every ${(CLIENTS / rate).toFixed(2)} s): p50 ${percentile(paced, 50).toFixed(0)} ms, ` +
          `p95 ${p95.toFixed(0)} ms, p99 ${percentile(paced, 99).toFixed(0)} ms, failures ${pacedFailures} -> ${p95 <= 150 ? 'met' : 'MISSED'}`,
      );
    }
  } finally {
    // The apps first: on their way out they send S3 the deletions they still hold.
    await killAndWait(children, 'SIGTERM');
    await killAndWait([s3.child], 'SIGTERM');
    agent.destroy();
    console.log(`after: ${loadAverage()}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
