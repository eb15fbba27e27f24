// `node dist/bench/lead-submission.js` (after `npm run build:node`): the product's lead submission
// (gateway → leads-service → PostgreSQL with outbox → two jobs) against the plain Fastify + pg +
// BullMQ baseline (docs/benchmarks.md), measured in the same run with autocannon (BENCH_CONNECTIONS, default 50).
// Uses its own database (spark_bench) and Redis database 3; prints req/s, p50 and p99, the CPU each process spent
// per request and the peak RSS of the gateway and the leads-service. After the load the notifier starts against an
// SMTP sink in this process, and every lead's two e-mails are counted once the mail queue is idle.
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { join } from 'node:path';
import { deployedNode, startSmtpSink } from '@spark/testing';
import autocannon from 'autocannon';
import { bullPrefix } from '@spark/jobs';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import { cpuPer, measureCpu, productProcesses } from './process-cpu';
import { type MetricsPage, measureStages } from './stage-latency';
import { recordFigure } from './summary';
import { appEnvironment, firstMessage, loadAverage, recreateDatabase, rssMb, waitUntilReady } from './support';

const root = join(__dirname, '..', '..');
const seconds = Number(process.env.BENCH_SECONDS ?? 15);
// 1 sends one request at a time: the cost of a request that shares no socket write with another, unlike at saturation.
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const redisUrl = `${(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379').replace(/\/\d*$/, '')}/3`;
const LEAD_ALERT_EMAIL = 'bench-alerts@example.com';

let counter = 0;
async function load(url: string, title: string, duration = seconds) {
  const result = await autocannon({
    url,
    title,
    connections,
    duration,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    requests: [
      { setupRequest: (request) => ({ ...request, body: JSON.stringify({ email: `bench-${process.pid}-${counter++}@example.com`, role: 'client' }) }) },
    ],
  });
  const ok = result['2xx'];
  return { title, ok, rps: Math.round(ok / duration), p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors };
}

/** Loads `url` while measuring the CPU of `apps`, PostgreSQL and Redis, and the peak RSS of each app (the first's is returned). */
async function measuredLoad(url: string, title: string, apps: { name: string; pid: number }[], databaseUrl: string, metricsPages: MetricsPage[] = []) {
  // Warm the path (JIT, pools) first; its pools' connections are then open to be counted.
  await load(url, 'warm-up', 5);
  const groups = await productProcesses(apps, databaseUrl, redisUrl);
  const peakRss = apps.map(() => 0);
  const sampler = setInterval(() => apps.forEach(({ pid }, index) => (peakRss[index] = Math.max(peakRss[index] ?? 0, rssMb(pid)))), 100);
  const {
    result: { result, cpuMs },
    stages,
  } = await measureStages(metricsPages, () => measureCpu(groups, () => load(url, title))).finally(() => clearInterval(sampler));
  console.log(
    `${result.title}\n  ${result.rps} req/s   p50 ${result.p50} ms   p99 ${result.p99} ms   non-2xx ${result.non2xx}   errors ${result.errors}\n` +
      `  CPU ms per request: ${cpuPer(cpuMs, result.ok)}\n  peak RSS: ${apps.map(({ name }, index) => `${name} ${peakRss[index]?.toFixed(1)} MB`).join(', ')}` +
      stages.map((stage) => `\n  ${stage}`).join(''),
  );
  return { ...result, peakRss: peakRss[0] ?? 0 };
}

/** Starts the notifier against an SMTP sink and waits until the mail queue is idle; returns what the sink got. */
async function sendTheMail(env: NodeJS.ProcessEnv & { BUS_PREFIX: string }) {
  const sink = await startSmtpSink();
  const deployed = deployedNode('notifier');
  const notifier = spawn(process.execPath, [...deployed.execArgv, join(root, 'dist/apps/notifier/src/main.js')], {
    // Every lead's alert one by one, as the monolith's second job: the run checks each lead got both e-mails, and an
    // hour's digest past the product's cap would wait for the hour to end.
    env: { ...env, ...deployed.env, HEALTH_PORT: '18181', SMTP_URL: sink.url, LEAD_ALERT_EMAIL, NOTIFIER_CONCURRENCY: '50', LEAD_ALERTS_PER_HOUR: '1000000' },
    stdio: 'inherit',
  });
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const queue = new Queue('mail', { connection, prefix: bullPrefix(env.BUS_PREFIX) });
  try {
    const started = Date.now();
    let idleSince = 0;
    // Idle: nothing waiting, active or delayed for 3 s in a row, with the notifier up.
    while (idleSince === 0 || Date.now() - idleSince < 3000) {
      const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
      const busy = Object.values(counts).some((count) => count > 0) || sink.messages.length === 0;
      idleSince = busy ? 0 : idleSince || Date.now();
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    console.log(`notifier: ${sink.messages.length} e-mails in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return sink.messages;
  } finally {
    notifier.kill('SIGTERM');
    await queue.close();
    connection.disconnect();
    await sink.close();
  }
}

async function main() {
  const databaseUrl = await recreateDatabase('spark_bench');
  const redis = new Redis(redisUrl);
  await redis.flushdb();
  const children: ChildProcess[] = [];
  // Every lead comes from 127.0.0.1: lift the per-IP limit (the counting still runs and is measured).
  const env = appEnvironment({ databaseUrl, redisUrl, busPrefix: 'bench', port: 18180 }, { RATE_LIMIT_FACTOR: '1000000' });
  const nodeArgs = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  // As deployed (the node flags of its deploy/base manifest, the image's allocator setting), so its peak RSS is the
  // deployed process's.
  const start = (app: string, extra: Record<string, string>) => {
    const deployed = deployedNode(app);
    const child = spawn(process.execPath, [...deployed.execArgv, ...nodeArgs, join(root, `dist/apps/${app}/src/main.js`)], {
      env: { ...env, ...deployed.env, ...extra },
      stdio: 'inherit',
    });
    children.push(child);
    return { name: app, pid: child.pid as number };
  };
  try {
    console.log(`before: ${loadAverage()}`);
    const baseline = fork(join(root, 'dist/bench/baseline-server.js'), [databaseUrl, redisUrl, '18190', 'baseline'], { stdio: 'inherit' });
    children.push(baseline);
    // A baseline that cannot start (its port taken, say) ends the run instead of leaving it waiting.
    await firstMessage(baseline, 'the baseline server');
    // Each serves its readiness and its metrics on its health port.
    const healthPorts = { 'leads-service': 18182, gateway: 18183 };
    const leadsService = start('leads-service', { HEALTH_PORT: String(healthPorts['leads-service']) });
    const gateway = start('gateway', { HEALTH_PORT: String(healthPorts.gateway) });
    await waitUntilReady(`http://127.0.0.1:${healthPorts['leads-service']}/health/ready`);
    await waitUntilReady('http://127.0.0.1:18180/health/ready');
    const base = await measuredLoad(
      'http://127.0.0.1:18190/api/leads',
      'baseline: fastify + pg + 2 BullMQ jobs',
      [{ name: 'baseline', pid: baseline.pid as number }],
      databaseUrl,
    );
    const product = await measuredLoad(
      'http://127.0.0.1:18180/api/leads',
      'product: gateway → leads-service → pg + outbox → 2 jobs',
      [gateway, leadsService],
      databaseUrl,
      Object.entries(healthPorts).map(([name, port]) => ({ name, url: `http://127.0.0.1:${port}/metrics` })),
    );
    console.log(`after: ${loadAverage()}`);
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
    recordFigure({ measure: 'lead submission, gateway peak RSS', figure: `${product.peakRss.toFixed(1)} MB`, target: '≤ 150 MB', met: product.peakRss <= 150 });

    // Every lead the product stored (warm-up and measured, and those still in flight when the load stopped) must
    // get its two e-mails, once: counted when the mail queue is idle.
    const mail = await sendTheMail({ ...env });
    const pg = new Client({ connectionString: databaseUrl });
    await pg.connect();
    const leadEmails = new Set((await pg.query<{ email: string }>('SELECT email FROM leads.leads')).rows.map(({ email }) => email));
    await pg.end();
    const leads = leadEmails.size;
    const confirmations = mail.filter((message) => !message.to.includes(LEAD_ALERT_EMAIL));
    const alerts = mail.length - confirmations.length;
    const confirmed = new Set(confirmations.flatMap((message) => message.to));
    const everyLeadConfirmed = [...leadEmails].every((email) => confirmed.has(email));
    const exact = everyLeadConfirmed && confirmations.length === leads && confirmed.size === leads && alerts === leads;
    console.log(
      `${leads} leads: ${confirmations.length} confirmations to ${confirmed.size} addresses (every lead's among them: ${everyLeadConfirmed}), ${alerts} team alerts`,
    );
    recordFigure({
      measure: 'lead submission, e-mails per lead after the run',
      figure: `${confirmations.length} + ${alerts} for ${leads} leads`,
      target: '2 each',
      met: exact,
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
