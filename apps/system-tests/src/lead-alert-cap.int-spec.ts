import { randomUUID } from 'node:crypto';
import { QUEUES } from '@spark/contracts';
import { JobQueues } from '@spark/jobs';
import { eventually } from '@spark/testing';
import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { Client } from 'pg';
import { sentMailEraser } from '../../notifier/src/tooling';
import { HOUR_MS, hourToSubmitIn } from './alert-cap-hour';
import { type InProcessStack, startInProcessStack } from './in-process-stack';

const CAP = 3;
const LEADS = 8;
const TEAM = 'alerts@spark.test';

/** What the team's digest may still name, the hour's addresses waiting in the notifier's own schema. */
async function addressesKept(db: Client, windowStart: number): Promise<string[]> {
  const { rows } = await db.query<{ email: string }>(
    `SELECT email FROM notifier.lead_alert_decisions WHERE window_start = $1 AND email IS NOT NULL ORDER BY email`,
    [new Date(windowStart)],
  );
  return rows.map(({ email }) => email);
}

/** Deletes the keys under `pattern`, as a Redis that lost its data would hold none. */
async function deleteKeysUnder(redis: Redis, pattern: string): Promise<number> {
  let deleted = 0;
  for await (const keys of redis.scanStream({ match: pattern, count: 500 }) as AsyncIterable<string[]>) {
    if (keys.length > 0) deleted += await redis.unlink(...keys);
  }
  return deleted;
}

/** A stack under the cap for the describe it is called in, with a database client and the queues' producer. */
function stackUnderCap(env: NodeJS.ProcessEnv): { stack: InProcessStack; db: Client; jobs: JobQueues } {
  const held = {} as { stack: InProcessStack; db: Client; jobs: JobQueues };
  beforeAll(async () => {
    held.stack = await startInProcessStack({ env });
    held.db = new Client({ connectionString: held.stack.databaseUrl });
    await held.db.connect();
    held.jobs = new JobQueues(held.stack.redis, held.stack.env.BUS_PREFIX ?? '');
  });
  afterAll(async () => {
    await held.jobs.close();
    await held.db.end();
    await held.stack.stop();
  });
  return held;
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
  const held = stackUnderCap({ LEAD_ALERTS_PER_HOUR: String(CAP) });
  const teamMail = () => held.stack.smtp.messages.filter((mail) => mail.to.includes(TEAM));
  const alertJobs = async () => (await held.jobs.queue(QUEUES.mail).getJobs(['completed'])).filter((job) => job.name === 'lead-alert');

  it(`sends ${CAP} alerts one by one in an hour and one digest naming the other ${LEADS - CAP}; every lead is recorded and confirmed`, async () => {
    const { stack, db, jobs } = held;
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
    // The addresses go with the digest, once it is delivered: its job ends only after they are forgotten.
    await eventually(async () => (await digestJob?.getState()) === 'completed', 30_000, 'the digest job to complete');
    expect(await addressesKept(db, windowStart)).toEqual([]);
  }, 150_000);

  it('neither sends nor counts nor gathers again when every alert job and the digest are delivered again', async () => {
    const { db, jobs } = held;
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
    const hours = await db.query<{ alerts: number; closed: boolean }>(`SELECT alerts, closed_at IS NOT NULL AS closed FROM notifier.lead_alert_hours`);
    expect(hours.rows).toEqual([{ alerts: CAP, closed: true }]);
    const decisions = await db.query<{ decision: string; count: number; addresses: number }>(
      `SELECT decision, count(*)::int AS count, count(email)::int AS addresses FROM notifier.lead_alert_decisions GROUP BY 1 ORDER BY 1`,
    );
    expect(decisions.rows).toEqual([
      { decision: 'alert', count: CAP, addresses: 0 },
      { decision: 'digest', count: LEADS - CAP, addresses: 0 },
    ]);
    const { rows } = await db.query<{ job_name: string; count: number }>(
      `SELECT job_name, count(*)::int AS count FROM notifier.sent_emails WHERE job_name IN ('lead-alert', 'lead-alert-digest') GROUP BY 1 ORDER BY 1`,
    );
    expect(rows).toEqual([
      { job_name: 'lead-alert', count: CAP },
      { job_name: 'lead-alert-digest', count: 1 },
    ]);
  }, 60_000);

  it('sends the team nothing more when Redis lost its data and every alert job comes again', async () => {
    const { stack, db, jobs } = held;
    const before = teamMail().length;
    const allBefore = stack.smtp.messages.length;
    const queue = jobs.queue(QUEUES.mail);
    // As the leads-service's outbox would add them again, under their ids, in an order of its own: the leads the
    // digest named first, then those alerted one by one. Its relay is stopped meanwhile so that the order is the test's.
    const alerted = (email: string) => teamMail().some((mail) => mail.subject.includes(email));
    const lost = (await alertJobs()).map(({ name, data, id }) => ({ name, data: data as { email: string }, id }));
    const turns = [lost.filter((job) => !alerted(job.data.email)), lost.filter((job) => alerted(job.data.email))];
    expect(turns.map((turn) => turn.length)).toEqual([LEADS - CAP, CAP]);
    await stack.stopNotifier();
    await stack.stopService('leads');
    console.log(`keys deleted with Redis's data: ${await deleteKeysUnder(stack.redis, `${stack.env.BUS_PREFIX}*`)}`);
    await stack.startNotifier();
    let added = 0;
    for (const turn of turns) {
      for (const { name, data, id } of turn) await queue.add(name, data, { jobId: id });
      added += turn.length;
      await eventually(async () => (await alertJobs()).length === added, 30_000, 'the alert jobs added again to complete');
    }
    await stack.startService('leads');
    const digestJob = (await queue.getJobs(['delayed', 'waiting', 'completed'])).find((job) => job.name === 'lead-alert-digest');
    await digestJob?.promote().catch(() => undefined);
    if (digestJob) await eventually(async () => (await queue.getJobState(digestJob.id ?? '')) === 'completed', 30_000, 'the digest queued again to run');
    console.log(
      `team's inbox after the alerts came again: ${teamMail().length - before} more (${teamMail()
        .slice(before)
        .map((mail) => mail.subject)
        .join(' | ')}); every e-mail: ${stack.smtp.messages.length - allBefore} more`,
    );
    expect(teamMail()).toHaveLength(before);
    expect(stack.smtp.messages).toHaveLength(allBefore);
    expect((await db.query(`SELECT alerts FROM notifier.lead_alert_hours`)).rows).toEqual([{ alerts: CAP }]);
  }, 120_000);
});

describe("the team's digest retried after its hour", () => {
  const held = stackUnderCap({ LEAD_ALERTS_PER_HOUR: '1' });

  it('names the leads past the cap once when it runs, and sends nothing more when retried later', async () => {
    const { stack, db, jobs } = held;
    const windowStart = await hourToSubmitIn();
    const teamMail = () => stack.smtp.messages.filter((mail) => mail.to.includes(TEAM));
    const queue = jobs.queue(QUEUES.mail);
    const emails = ['alone@example.com', 'late-a@example.com', 'late-b@example.com'];
    for (const [index, email] of emails.entries()) {
      await submitLead(stack, { email, role: 'coach' });
      await eventually(
        async () => (await queue.getJobs(['completed'])).filter((job) => job.name === 'lead-alert').length === index + 1,
        30_000,
        `the alert of ${email}`,
      );
    }
    expect(teamMail()).toHaveLength(1);
    const digestJobId = `lead-alert-digest-${windowStart}`;
    await (await queue.getJob(digestJobId))?.promote();
    await eventually(async () => (await queue.getJobState(digestJobId)) === 'completed', 30_000, 'the digest job to complete');
    await eventually(async () => teamMail().length === 2, 10_000, 'the digest').catch(() => undefined);
    const digest = () => teamMail().filter((mail) => !mail.subject.startsWith('New '));
    console.log(`digests after the run: ${digest().length}: ${digest()[0]?.subject ?? '(none)'}`);
    expect(digest()).toHaveLength(1);
    expect(digest()[0]?.text).toMatch(/late-a@example\.com \(coach\)[\s\S]*late-b@example\.com \(coach\)/);

    // Retried again, by an admin or a worker that died holding it: the ledger has it.
    await (await queue.getJob(digestJobId))?.retry('completed');
    await eventually(async () => (await queue.getJobState(digestJobId)) === 'completed', 30_000, 'the digest job to complete again');
    expect(digest()).toHaveLength(1);
    expect(teamMail()).toHaveLength(2);
    expect(await addressesKept(db, windowStart)).toEqual([]);
  }, 150_000);
});

describe("the team's digest after an erasure", () => {
  const held = stackUnderCap({ LEAD_ALERTS_PER_HOUR: '1' });

  it('names at most five of a flood, counts the rest, and leaves out an address erased since', async () => {
    const { stack, db, jobs } = held;
    const windowStart = await hourToSubmitIn();
    const teamMail = () => stack.smtp.messages.filter((mail) => mail.to.includes(TEAM));
    const queue = jobs.queue(QUEUES.mail);
    const alertsDone = async (count: number) => (await queue.getJobs(['completed'])).filter((job) => job.name === 'lead-alert').length === count;
    // In turns, so the hour's one alert is the first lead's and the digest names the next two among its five.
    const turns = [['first-of-the-hour@example.com'], ['kept@example.com', 'erased-since@example.com'], [1, 2, 3, 4, 5].map((n) => `later-${n}@example.com`)];
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
    const kept = await addressesKept(db, windowStart);
    console.log(`addresses kept for the digest after the erasure: ${kept.join(', ')}`);
    expect(kept).toEqual(['kept@example.com', ...[1, 2, 3, 4, 5].map((n) => `later-${n}@example.com`)]);
    await (await queue.getJob(`lead-alert-digest-${windowStart}`))?.promote();
    await eventually(async () => teamMail().length === 2, 30_000, 'the alert and the digest');
    const digest = teamMail().find((mail) => !mail.subject.startsWith('New '));
    expect(digest?.text).toContain('7 more people expressed interest');
    expect(digest?.text).toContain('E-mail: kept@example.com (client)');
    // The first five by time whose address was not erased.
    expect(digest?.text.match(/^E-mail: /gm)).toHaveLength(5);
    expect(digest?.text).toContain('E-mail: later-4@example.com (client)');
    expect(digest?.text).not.toContain('later-5@example.com');
    expect(digest?.text).toContain('And 2 more, listed on the dashboard.');
    expect(digest?.text).not.toContain('erased-since@example.com');
    expect(digest?.html).not.toContain('erased-since@example.com');
  }, 150_000);
});
