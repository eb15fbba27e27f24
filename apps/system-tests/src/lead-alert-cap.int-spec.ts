import { randomUUID } from 'node:crypto';
import { QUEUES } from '@spark/contracts';
import { JobQueues } from '@spark/jobs';
import { eventually } from '@spark/testing';
import type { Job } from 'bullmq';
import { Client } from 'pg';
import { sentMailEraser } from '../../notifier/src/tooling';
import { type InProcessStack, startInProcessStack } from './in-process-stack';

const CAP = 3;
const LEADS = 8;
const HOUR_MS = 3_600_000;
const TEAM = 'alerts@spark.test';

/** The start of the hour the test's leads fall in: the next one when this one is nearly over. */
async function hourToSubmitIn(): Promise<number> {
  const leftOfHour = HOUR_MS - (Date.now() % HOUR_MS);
  if (leftOfHour < 90_000) await new Promise((resolve) => setTimeout(resolve, leftOfHour + 1_000));
  return Math.floor(Date.now() / HOUR_MS) * HOUR_MS;
}

async function submitLead(stack: InProcessStack, lead: { email: string; role: string; interest?: string }): Promise<void> {
  const response = await fetch(`${stack.baseUrl}/api/leads`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(lead) });
  expect(response.status).toBe(201);
}

/**
 * The team's new-lead alerts under a cap across every network (`LEAD_ALERTS_PER_HOUR`): the real gateway, services
 * and notifier, PostgreSQL, Redis, BullMQ and an SMTP sink. Leads from one address stand for a botnet's many networks:
 * the cap counts alerts, whoever sends the leads.
 */
describe("the cap on the team's new-lead alerts", () => {
  let stack: InProcessStack;
  let db: Client;
  let jobs: JobQueues;
  const teamMail = () => stack.smtp.messages.filter((mail) => mail.to.includes(TEAM));
  const alertJobs = async () => (await jobs.queue(QUEUES.mail).getJobs(['completed'])).filter((job) => job.name === 'lead-alert');

  beforeAll(async () => {
    stack = await startInProcessStack({ env: { LEAD_ALERTS_PER_HOUR: String(CAP) } });
    db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
    jobs = new JobQueues(stack.redis, stack.env.BUS_PREFIX ?? '');
  });
  afterAll(async () => {
    await jobs.close();
    await db.end();
    await stack.stop();
  });

  it(`sends ${CAP} alerts one by one in an hour and one digest naming the other ${LEADS - CAP}; every lead is recorded and confirmed`, async () => {
    const windowStart = await hourToSubmitIn();
    const emails = Array.from({ length: LEADS }, (_, index) => `capped-${index}@example.com`);
    for (const [index, email] of emails.entries()) {
      await submitLead(stack, { email, role: index % 2 === 0 ? 'client' : 'coach', interest: 'See https://evil.example/login' });
    }

    await eventually(async () => (await alertJobs()).length === LEADS, 30_000, 'every alert job to complete');
    await eventually(async () => emails.every((email) => stack.smtp.messages.some((mail) => mail.to.includes(email))), 30_000, 'every confirmation');
    const { rows } = await db.query<{ count: number }>(`SELECT count(*)::int AS count FROM leads.leads WHERE email LIKE 'capped-%@example.com'`);
    expect(rows[0]?.count).toBe(LEADS);
    for (const email of emails) expect(stack.smtp.messages.filter((mail) => mail.to.includes(email))).toHaveLength(1);
    const alerts = teamMail();
    console.log(`team's inbox before the digest: ${alerts.map((mail) => mail.subject).join(' | ')}`);
    expect(alerts).toHaveLength(CAP);

    // The digest waits, delayed, for the hour's end and a minute; run now, it closes the hour as it would then.
    const digestJob = await jobs.queue(QUEUES.mail).getJob(`lead-alert-digest-${windowStart}`);
    expect(digestJob).toBeDefined();
    // BullMQ dates the job when it is added, a moment after the delay was reckoned.
    const runsAt = (digestJob?.timestamp ?? 0) + (digestJob?.delay ?? 0);
    expect({ state: await digestJob?.getState(), runsAt: Math.round(runsAt / 1000) * 1000 }).toEqual({
      state: 'delayed',
      runsAt: windowStart + HOUR_MS + 60_000,
    });
    await digestJob?.promote();
    await eventually(async () => teamMail().length === CAP + 1, 30_000, 'the digest');
    const digest = teamMail().find((mail) => !mail.subject.startsWith('New '));
    console.log(`the digest: ${digest?.subject}\n${digest?.text}`);
    const hour = (time: number) => new Date(time).toISOString().slice(11, 16);
    expect(digest?.subject).toContain(`${LEADS - CAP} more leads between ${hour(windowStart)} and ${hour(windowStart + HOUR_MS)} UTC`);
    expect(digest?.text).toContain(`${LEADS - CAP} more people expressed interest between ${hour(windowStart)} and ${hour(windowStart + HOUR_MS)} UTC`);
    expect(digest?.text).toMatch(/\nReview them: \S+\/coach$/);
    expect(digest?.text).not.toContain('evil');
    // Each lead reaches the team once: alone, or named in the digest.
    const named = (text: string) => emails.filter((email) => text.includes(email));
    const alone = alerts.flatMap((mail) => named(mail.subject));
    const digested = named(digest?.text ?? '');
    expect([...alone, ...digested].sort()).toEqual([...emails].sort());
    expect(digested).toHaveLength(LEADS - CAP);
    // The gathered addresses go with the digest.
    expect(await stack.redis.keys(`${stack.env.BUS_PREFIX}:bull:mail:lead-alert-cap:*:leads`)).toEqual([]);
  }, 150_000);

  it('neither sends nor counts nor gathers again when every alert job and the digest are delivered again', async () => {
    const before = teamMail().length;
    const again: Job[] = [...(await alertJobs()), ...(await jobs.queue(QUEUES.mail).getJobs(['completed'])).filter((job) => job.name === 'lead-alert-digest')];
    expect(again.map((job) => job.name).sort()).toEqual([...Array<string>(LEADS).fill('lead-alert'), 'lead-alert-digest']);
    const finishedBefore = new Map(again.map((job) => [job.id, job.finishedOn]));
    for (const job of again) await job.retry('completed');
    await eventually(
      async () => {
        const finished = await Promise.all(again.map(async (job) => (await jobs.queue(QUEUES.mail).getJob(job.id ?? ''))?.finishedOn));
        return finished.every((finishedOn, index) => finishedOn !== undefined && finishedOn !== finishedBefore.get(again[index]?.id));
      },
      30_000,
      'every job to run again',
    );
    for (const job of again) expect(await (await jobs.queue(QUEUES.mail).getJob(job.id ?? ''))?.getState()).toBe('completed');
    expect(teamMail()).toHaveLength(before);
    expect(await stack.redis.keys(`${stack.env.BUS_PREFIX}:bull:mail:lead-alert-cap:*:leads`)).toEqual([]);
    const [count] = await stack.redis.keys(`${stack.env.BUS_PREFIX}:bull:mail:lead-alert-cap:[0-9]*[0-9]`);
    expect(await stack.redis.hmget(count ?? '', 'alerts', 'gathered')).toEqual([String(CAP), String(LEADS - CAP)]);
    const { rows } = await db.query<{ job_name: string; count: number }>(
      `SELECT job_name, count(*)::int AS count FROM notifier.sent_emails WHERE job_name IN ('lead-alert', 'lead-alert-digest') GROUP BY 1 ORDER BY 1`,
    );
    expect(rows).toEqual([
      { job_name: 'lead-alert', count: CAP },
      { job_name: 'lead-alert-digest', count: 1 },
    ]);
  }, 60_000);
});

describe("the team's digest after an erasure", () => {
  let stack: InProcessStack;
  let db: Client;

  beforeAll(async () => {
    stack = await startInProcessStack({ env: { LEAD_ALERTS_PER_HOUR: '1' } });
    db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await stack.stop();
  });

  it('names at most five of a flood, counts the rest, and leaves out an address erased since', async () => {
    const windowStart = await hourToSubmitIn();
    const teamMail = () => stack.smtp.messages.filter((mail) => mail.to.includes(TEAM));
    const jobs = new JobQueues(stack.redis, stack.env.BUS_PREFIX ?? '');
    const queue = jobs.queue(QUEUES.mail);
    const alertsDone = async (count: number) => (await queue.getJobs(['completed'])).filter((job) => job.name === 'lead-alert').length === count;
    // In turns, so the hour's one alert is the first lead's and the digest names the next two among its five.
    const turns = [['first-of-the-hour@example.com'], ['kept@example.com', 'erased-since@example.com'], [1, 2, 3, 4, 5].map((n) => `later-${n}@example.com`)];
    try {
      let submitted = 0;
      for (const turn of turns) {
        for (const email of turn) await submitLead(stack, { email, role: 'client' });
        submitted += turn.length;
        await eventually(() => alertsDone(submitted), 30_000, 'every alert job to complete');
      }
      expect(teamMail()).toHaveLength(1);
      // The notifier's part of the account's erasure, as its erase job runs it.
      await db.query('BEGIN');
      await sentMailEraser({ query: async <T>(sql: string, parameters?: unknown[]) => (await db.query(sql, parameters)).rows as T }).erase({
        userId: randomUUID(),
        email: 'erased-since@example.com',
      });
      await db.query('COMMIT');
      await (await queue.getJob(`lead-alert-digest-${windowStart}`))?.promote();
      await eventually(async () => teamMail().length === 2, 30_000, 'the alert and the digest');
      const digest = teamMail().find((mail) => !mail.subject.startsWith('New '));
      expect(digest?.text).toContain('7 more people expressed interest');
      expect(digest?.text).toContain('E-mail: kept@example.com (client)');
      expect(digest?.text.match(/^E-mail: /gm)).toHaveLength(4);
      expect(digest?.text).toContain('And 3 more, listed on the dashboard.');
      expect(digest?.text).not.toContain('erased-since@example.com');
      expect(digest?.html).not.toContain('erased-since@example.com');
    } finally {
      await jobs.close();
    }
  }, 150_000);
});
