// `npm start -- --replicas 2` on one machine: two of every service, notifier and DITL worker behind one gateway,
// and the work of a load spread over the replicas, with every e-mail sent once.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createTestDatabase, eventually, type TestDatabase, testRedisUrl } from '@spark/testing';
import { Client } from 'pg';
import { processesWithMarker, root, start, testStack, waitFor } from './npm-start-harness';

// Beside the other stacks' ports (8080, 18080, 21080, 28080, 38080) and below Linux's ephemeral range.
const PORTS = { PORT: 22080, MAILBOX_SMTP_PORT: 2226, MAILBOX_WEB_PORT: 2281, S3_PORT: 22569 };
// Internal ports: the first replicas at PORT+1 … +7 (the gateway +8), the second replicas from PORT+9, in APPS order.
const LEADS_REPLICAS = [PORTS.PORT + 2, PORTS.PORT + 10];
const LEADS = 200;
const CONCURRENCY = 10;

/** How many `leads.create` requests a replica answered, from its Prometheus page. */
async function leadsAnsweredBy(healthPort: number): Promise<number> {
  const page = await (await fetch(`http://127.0.0.1:${healthPort}/metrics`)).text();
  return page
    .split('\n')
    .filter((line) => line.startsWith('bus_request_duration_seconds_count{') && line.includes('pattern="leads.create"'))
    .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
}

describe('npm start -- --replicas 2', () => {
  let database: TestDatabase;
  let db: Client;
  let environment: NodeJS.ProcessEnv;
  const stack = testStack('scale-out', PORTS);

  beforeAll(async () => {
    if (!existsSync(join(root, 'dist/apps/gateway/src/main.js'))) throw new Error('not built: run `npm run build` first (npm test does)');
    database = await createTestDatabase();
    db = new Client({ connectionString: database.url });
    await db.connect();
    environment = stack.environment({
      DATABASE_URL: database.url,
      REDIS_URL: await testRedisUrl(),
      LOG_LEVEL: 'warn',
      // One client address sends every lead here; the per-address limits are not under test.
      RATE_LIMIT_FACTOR: '1000',
      // Every lead's alert goes one by one, so the mailbox counts one per lead: the cap is not under test either.
      LEAD_ALERTS_PER_HOUR: String(LEADS),
    });
  });
  afterAll(async () => {
    for (const pid of processesWithMarker(stack.marker)) process.kill(pid, 'SIGKILL');
    await db?.end();
    await database?.drop();
  });

  it('spreads lead submissions over both leads-service replicas and sends each e-mail once', async () => {
    const run = start('npm', ['start', '--', '--skip-build', '--replicas', '2'], environment);
    try {
      await waitFor('npm start ready', () => /ready: 2 replicas/.test(run.output()) || run.child.exitCode !== null, 240_000);
      expect(run.output()).toContain('ready: 2 replicas of every service, the notifier and the DITL worker');

      const emails = Array.from({ length: LEADS }, (_, index) => `scale-${index}-${randomBytes(3).toString('hex')}@example.com`);
      const statuses: number[] = [];
      for (let next = 0; next < emails.length; next += CONCURRENCY) {
        const batch = emails.slice(next, next + CONCURRENCY).map(async (email) => {
          const response = await fetch(`http://127.0.0.1:${PORTS.PORT}/api/leads`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', origin: `http://localhost:${PORTS.PORT}` },
            body: JSON.stringify({ email, role: 'client' }),
          });
          statuses.push(response.status);
        });
        await Promise.all(batch);
      }
      expect(statuses.filter((status) => status !== 201)).toEqual([]);

      const answered = await Promise.all(LEADS_REPLICAS.map(leadsAnsweredBy));
      expect(answered[0] + answered[1]).toBe(LEADS);
      // Both replicas take a real share. A replica's read takes every request waiting, often a whole batch of
      // CONCURRENCY, so the split varies like one coin flip per batch, not one per lead; a replica that took none scores 0.
      for (const count of answered) {
        expect(count / LEADS).toBeGreaterThanOrEqual(0.1);
        expect(count / LEADS).toBeLessThanOrEqual(0.9);
      }

      // Idle: every outbox row's job finished (confirmed), then count what the mailbox received.
      await eventually(
        async () => {
          const { rows } = await db.query(`SELECT count(*)::int AS open FROM leads.outbox WHERE confirmed_at IS NULL`);
          return rows[0].open === 0;
        },
        120_000,
        'every e-mail job to finish',
      );
      const received = (await (await fetch(`http://127.0.0.1:${PORTS.MAILBOX_WEB_PORT}/email`)).json()) as { to: { address: string }[] }[];
      const perAddress = new Map<string, number>();
      for (const mail of received) for (const { address } of mail.to) perAddress.set(address, (perAddress.get(address) ?? 0) + 1);
      expect(emails.filter((email) => perAddress.get(email) !== 1)).toEqual([]);
      expect(received).toHaveLength(LEADS * 2); // and one alert per lead to the team
    } finally {
      run.child.kill('SIGTERM');
    }
    await run.exited;
    await waitFor('every process of the stack ended', () => processesWithMarker(stack.marker).length === 0, 60_000);
  }, 480_000);
});
