// `node dist/bench/reminders.js` (after `npm run build`): daily reminders for BENCH_CLIENTS (default 100 000) clients
// whose reminder times fall on the minute boundaries of the next BENCH_WINDOW_MINUTES (default 5) minutes, spread
// over eight time zones (so 20 000 come due at each boundary, as when everyone picks 20:00). The built
// progress-service (its reminder tick) and notifier (Web Push, VAPID-signed and encrypted) run as processes of their
// own; a push service stand-in on loopback records when each notification arrives. Target: every reminder within
// 60 s of its local time, each exactly once. The clients have no spark, so every one of them needs its reminder.
import { type ChildProcess, spawn } from 'node:child_process';
import { createECDH, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Client } from 'pg';
import webpush from 'web-push';
import { cpuPer, measureCpu, productProcesses } from './process-cpu';
import { percentile, recreateDatabase, waitUntilReady } from './support';
import { recordFigure } from './summary';

const clients = Number(process.env.BENCH_CLIENTS ?? 100_000);
const windowMinutes = Number(process.env.BENCH_WINDOW_MINUTES ?? 5);
const zones = ['Europe/Stockholm', 'Europe/London', 'America/New_York', 'America/Los_Angeles', 'Asia/Tokyo', 'Asia/Kolkata', 'Australia/Sydney', 'UTC'];
const root = join(__dirname, '..', '..');

/** The push service stand-in: counts each notification per client and when it came. */
async function startPushReceiver() {
  const arrivals = new Map<string, number[]>();
  const server = createServer((request, response) => {
    const userId = request.url?.split('/')[2] ?? '';
    request.resume();
    request.on('end', () => {
      const at = Date.now();
      arrivals.set(userId, [...(arrivals.get(userId) ?? []), at]);
      response.writeHead(201).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, arrivals, close: () => server.close() };
}

function startApp(app: string, env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, [join(root, 'dist', 'apps', app, 'src', 'main.js')], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
}

async function main() {
  const databaseUrl = await recreateDatabase('bench_reminders');
  const receiver = await startPushReceiver();
  const vapid = webpush.generateVAPIDKeys();
  // One device key pair for every client: encryption costs the same per message whatever the key.
  const device = createECDH('prime256v1');
  device.generateKeys();
  const keys = { p256dh: device.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATABASE_URL: databaseUrl,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    BUS_PREFIX: `bench-reminders-${randomBytes(3).toString('hex')}`,
    OUTBOX_POLL_MS: '200',
    REMINDER_TICK_MS: '5000',
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
    // The stand-in is the only push service: the notifier sends to no other origin.
    PUSH_SERVICE_ORIGINS: receiver.url,
    EXPORT_WORKER_ENABLED: 'false',
  };
  const progress = startApp('progress-service', { ...env, HEALTH_PORT: '18290' });
  await waitUntilReady('http://127.0.0.1:18290/health/ready');
  const notifier = startApp('notifier', { ...env, HEALTH_PORT: '18291', SMTP_URL: 'smtp://127.0.0.1:9' });
  await waitUntilReady('http://127.0.0.1:18291/health/ready');

  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  // The first boundary far enough ahead for the seeding to finish; then one every minute.
  const { rows } = await db.query<{ first: Date }>(`SELECT date_trunc('minute', now()) + interval '2 minutes' AS first`);
  const first = rows[0]?.first ?? new Date();
  const seeding = performance.now();
  await db.query(
    `WITH seeded AS (
       SELECT gen_random_uuid() AS user_id, i, ($2::text[])[1 + i % array_length($2::text[], 1)] AS zone,
              $3::timestamptz + make_interval(mins => i % $4) AS due
       FROM generate_series(0, $1 - 1) AS i
     ), progress AS (
       INSERT INTO progress.user_progress (user_id, email, full_name, evolution_start_date, evolution_end_date, time_zone)
       SELECT user_id, 'bench-' || i || '@spark.test', 'Bench ' || i, current_date, current_date + 90, zone FROM seeded
     )
     INSERT INTO progress.reminder_settings (user_id, enabled, local_time, push_subscription, unsubscribe_token, next_due_at)
     SELECT user_id, true, (due AT TIME ZONE zone)::time, jsonb_build_object('endpoint', $5 || '/push/' || user_id, 'keys', $6::jsonb),
            encode(sha256(user_id::text::bytea), 'hex'), due
     FROM seeded`,
    [clients, zones, first, windowMinutes, receiver.url, JSON.stringify(keys)],
  );
  const due = new Map(
    (await db.query<{ user_id: string; due: Date }>(`SELECT user_id, next_due_at AS due FROM progress.reminder_settings`)).rows.map((row) => [
      row.user_id,
      row.due.getTime(),
    ]),
  );
  console.log(
    `seeded ${clients} clients in ${((performance.now() - seeding) / 1000).toFixed(1)} s; ${clients / windowMinutes} due at each of ${windowMinutes} minute boundaries from ${first.toISOString()}`,
  );

  const deadline = first.getTime() + (windowMinutes + 3) * 60_000;
  const apps = [
    { name: 'progress-service', pid: progress.pid ?? 0 },
    { name: 'notifier', pid: notifier.pid ?? 0 },
  ];
  // This process is the push service stand-in: it receives and records every notification.
  const { cpuMs } = await measureCpu(await productProcesses(apps, databaseUrl, env.REDIS_URL ?? ''), async () => {
    while (receiver.arrivals.size < clients && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 1000));
  });
  // PostgreSQL is left out: the sampler follows the backends open when measuring starts, and for this burst its
  // figure read near zero, so the backends doing the work were not among them.
  const { postgres: _uncounted, ...counted } = cpuMs;
  console.log(`CPU ms per reminder (the load generator is the push service stand-in): ${cpuPer(counted, clients)}`);
  // Idle: a few more ticks after the last arrival, so a second notification would have come by now.
  await new Promise((resolve) => setTimeout(resolve, 15_000));

  const lateness: number[] = [];
  let duplicates = 0;
  for (const [userId, times] of receiver.arrivals) {
    duplicates += times.length - 1;
    lateness.push(((times[0] ?? 0) - (due.get(userId) ?? 0)) / 1000);
  }
  lateness.sort((a, b) => a - b);
  const missing = clients - receiver.arrivals.size;
  const within = lateness.filter((seconds) => seconds <= 60).length;
  const max = lateness.at(-1) ?? NaN;
  console.log(
    `reminders: ${receiver.arrivals.size} of ${clients} arrived, ${duplicates} twice, ${missing} missing; after their local time p50 ${percentile(lateness, 50).toFixed(1)} s, ` +
      `p95 ${percentile(lateness, 95).toFixed(1)} s, p99 ${percentile(lateness, 99).toFixed(1)} s, max ${max.toFixed(1)} s; ${within} within 60 s -> ${within === clients && duplicates === 0 ? 'met' : 'MISSED'}`,
  );
  recordFigure({
    measure: `reminders, ${clients} clients, latest after its local time`,
    figure: `max ${max.toFixed(1)} s (p95 ${percentile(lateness, 95).toFixed(1)} s)`,
    target: '≤ 60 s',
    met: within === clients,
  });
  recordFigure({ measure: 'reminders, sent twice or missing', figure: `${duplicates} / ${missing}`, target: '0 / 0', met: duplicates === 0 && missing === 0 });

  await db.end();
  for (const child of [progress, notifier]) child.kill('SIGTERM');
  receiver.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
