import { randomUUID } from 'node:crypto';
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { authEnv, developmentSigningKeys, loadConfig } from '@spark/config';
import { QUEUES } from '@spark/contracts';
import { JobQueues, MailSealer } from '@spark/jobs';
import { signedLeadSubmission } from '@spark/messaging';
import {
  createTestDatabase,
  endLockWaiters,
  eventually,
  freePort,
  insertUser,
  killAndWait,
  linesOf,
  lockWaiters,
  type ReceivedMail,
  type SmtpSink,
  startSmtpSink,
  type TestDatabase,
  testRedisUrl,
  uniquePrefix,
} from '@spark/testing';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import webpush from 'web-push';
import { sentMailEraser } from '../../notifier/src/tooling';
import { hourToSubmitIn } from './alert-cap-hour';
import { startPushStandIn } from './push-stand-in';
import { startReplica } from './spawned-app';

const notifierEntry = join(__dirname, '../../notifier/src/main.ts');
// Seals for the notifier of a test stack, which opens with the development key.
const sealer = new MailSealer(loadConfig(authEnv, {}).MAIL_SEAL_PUBLIC_KEY);

/**
 * The notifier under faults, as separate processes: killed with SIGKILL between "the SMTP server took the e-mail"
 * and "the ledger says so", two notifiers in turn killed holding the same job, PostgreSQL refusing the ledger write
 * after an e-mail or a push, an SMTP server that is down for a while, an auth-service that is not there to say
 * whom a reminder is for, and an account erased while its e-mail is under way.
 */
describe('the notifier under faults', () => {
  let database: TestDatabase;
  let db: Client;
  let redis: Redis;
  let jobs: JobQueues;
  let sink: SmtpSink;
  let beforeAccepting: ((mail: ReceivedMail) => Promise<void>) | undefined;
  const busPrefix = uniquePrefix('notifier-crash');
  const notifiers: ChildProcess[] = [];

  const startNotifier = (smtpUrl = sink.url, retry = { first: '1000', max: '300000' }, logLevel = 'warn', extraEnv: NodeJS.ProcessEnv = {}) => {
    const env = {
      ...process.env,
      ...extraEnv,
      DATABASE_URL: database.url,
      BUS_PREFIX: busPrefix,
      SMTP_URL: smtpUrl,
      NOTIFIER_LOCK_MS: '1000',
      NOTIFIER_RETRY_FIRST_MS: retry.first,
      NOTIFIER_RETRY_MAX_MS: retry.max,
      LOG_LEVEL: logLevel,
    };
    const notifier = spawn(process.execPath, ['-r', '@swc-node/register', notifierEntry], { env, stdio: ['ignore', 'pipe', 'ignore'] });
    notifiers.push(notifier);
    return { notifier, logLines: linesOf(notifier.stdout) };
  };
  /** `queuedAt`: when the outbox row it came from was written, if not now. */
  const sendMagicLink = async (email: string, jobId = `magic-link-${email}`, queuedAt?: number) => {
    const data = {
      email,
      expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
      purpose: 'sign-in' as const,
      sealed: await sealer.seal('magic-link', email, { link: 'http://localhost:8080/magic-link#token=abc', code: '123456' }),
    };
    await jobs.addChecked([{ job: { queue: QUEUES.mail, name: 'magic-link', data }, jobId, queuedAt }]);
    return { jobId, ledgerKey: `${QUEUES.mail}:${jobId}` };
  };
  /** Idle: the job completed and nothing of the queue is waiting, delayed or running. */
  const untilIdle = async (jobId: string) => {
    const queue = jobs.queue(QUEUES.mail);
    await eventually(async () => (await queue.getJobState(jobId)) === 'completed', 30_000, `job ${jobId} to complete`);
    await eventually(
      async () => {
        const counts = await queue.getJobCounts('wait', 'delayed', 'active', 'prioritized');
        return Object.values(counts).every((count) => count === 0);
      },
      10_000,
      'the mail queue to be idle',
    );
  };
  const ledgerRow = async (key: string) =>
    (await db.query<{ status: string; message_id: string | null }>(`SELECT status, message_id FROM notifier.sent_emails WHERE idempotency_key = $1`, [key]))
      .rows[0];
  /**
   * Holds the e-mail's ledger row from before the SMTP server answers, so the notifier's "sent" write waits on it, then
   * kills `running` while it waits: the e-mail is sent and the ledger still says "sending". `send` starts the sending.
   */
  const killBetweenSendAndRecord = async (ledgerKey: string, running: ChildProcess[], what: string, send = () => Promise.resolve()) => {
    const rowLock = new Client({ connectionString: database.url });
    await rowLock.connect();
    beforeAccepting = async () => {
      beforeAccepting = undefined;
      await rowLock.query('BEGIN');
      await rowLock.query(`SELECT 1 FROM notifier.sent_emails WHERE idempotency_key = $1 FOR UPDATE`, [ledgerKey]);
    };
    await send();
    await eventually(async () => (await lockWaiters(db, 'UPDATE notifier.sent_emails')) === 1, 30_000, what);
    await killAndWait(running);
    // The dead process's queued write must not run once the row is free.
    await endLockWaiters(db);
    await rowLock.query('ROLLBACK');
    await rowLock.end();
    expect((await ledgerRow(ledgerKey))?.status).toBe('sending');
  };
  const receivedBy = (email: string) => sink.messages.filter((mail) => mail.to.includes(email));
  /** The notifier's part of `email`'s erasure, as its erase job runs it: in one transaction, committed by the caller. */
  const eraseIn = (transaction: Client, email: string) =>
    sentMailEraser({ query: async <T>(sql: string, parameters?: unknown[]) => (await transaction.query(sql, parameters)).rows as T }).erase({
      userId: randomUUID(),
      email,
    });
  /** Ledger rows that name `email` in any column. */
  const ledgerRowsNaming = async (email: string) =>
    (await db.query(`SELECT r::text AS row FROM notifier.sent_emails AS r WHERE strpos(lower(r::text), lower($1)) > 0`, [email])).rows;
  /** PostgreSQL refuses the next "sent" write of the ledger, once: a sequence counts, since a refused transaction would roll a table insert back. */
  const refuseNextSentWrite = async () => {
    // Made by a notifier's first start.
    await eventually(async () => (await db.query(`SELECT to_regclass('notifier.sent_emails') AS ledger`)).rows[0].ledger !== null, 30_000, 'the ledger table');
    await db.query(`CREATE SEQUENCE IF NOT EXISTS notifier.sent_refusals`);
    await db.query(`ALTER SEQUENCE notifier.sent_refusals RESTART`);
    await db.query(`
      CREATE OR REPLACE FUNCTION notifier.refuse_first_sent() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.status = 'sent' AND nextval('notifier.sent_refusals') = 1 THEN RAISE EXCEPTION 'the ledger is unavailable'; END IF;
        RETURN NEW;
      END $$`);
    await db.query(`
      CREATE OR REPLACE TRIGGER refuse_first_sent BEFORE UPDATE ON notifier.sent_emails FOR EACH ROW EXECUTE FUNCTION notifier.refuse_first_sent()`);
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    db = new Client({ connectionString: database.url });
    await db.connect();
    redis = new Redis(await testRedisUrl(), { maxRetriesPerRequest: null });
    jobs = new JobQueues(redis, busPrefix, developmentSigningKeys());
    sink = await startSmtpSink({ beforeAccepting: (mail) => beforeAccepting?.(mail) ?? Promise.resolve() });
  });
  afterAll(async () => {
    await killAndWait(notifiers);
    await jobs.close();
    const keys = await redis.keys(`${busPrefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
    await db.end();
    await database.drop();
    await sink.close();
  });

  it('does not send again when the notifier dies after the SMTP server took the e-mail and before the ledger recorded it', async () => {
    const email = 'killed-after-send@example.com';
    const { notifier: first } = startNotifier();
    const { jobId, ledgerKey } = await sendMagicLink(email);
    await killBetweenSendAndRecord(ledgerKey, [first], "the notifier's ledger write to wait on the row");

    startNotifier();
    await untilIdle(jobId);
    expect(receivedBy(email)).toHaveLength(1);
    const row = await ledgerRow(ledgerKey);
    expect(row).toEqual({ status: 'sent', message_id: receivedBy(email)[0]?.messageId });
  }, 90_000);

  it('sends an e-mail once, and completes its job, after two notifiers in turn died holding it', async () => {
    await killAndWait(notifiers);
    // A first e-mail sent makes sure the notifier has made its tables before the test locks one.
    startNotifier();
    await untilIdle((await sendMagicLink('before-the-crash-loop@example.com')).jobId);
    // Each delivery then waits on its ledger claim, holding the job, until its notifier is killed.
    const tableLock = new Client({ connectionString: database.url });
    await tableLock.connect();
    await tableLock.query('BEGIN');
    await tableLock.query('LOCK TABLE notifier.sent_emails IN EXCLUSIVE MODE');
    const email = 'held-through-a-crash-loop@example.com';
    const { jobId, ledgerKey } = await sendMagicLink(email);
    const claimWaits = () =>
      eventually(async () => (await lockWaiters(db, 'INSERT INTO notifier.sent_emails')) === 1, 30_000, 'a delivery to wait on its claim');
    await claimWaits();
    await killAndWait(notifiers);
    // The dead process's queued claim must not run once the table is free.
    await endLockWaiters(db);

    // The next notifier takes the job back from the dead one (its first stall) and dies holding it too.
    startNotifier();
    await claimWaits();
    await killAndWait(notifiers);
    await endLockWaiters(db);
    await tableLock.query('ROLLBACK');
    await tableLock.end();

    startNotifier();
    const queue = jobs.queue(QUEUES.mail);
    const finished = async () => {
      const job = await queue.getJob(jobId);
      return job?.finishedOn ? { state: await job.getState(), failedReason: job.failedReason, stalls: job.stalledCounter } : undefined;
    };
    expect(await eventually(finished, 30_000, `job ${jobId} to finish`)).toEqual({ state: 'completed', failedReason: undefined, stalls: 2 });
    await untilIdle(jobId);
    expect(receivedBy(email)).toHaveLength(1);
    expect((await ledgerRow(ledgerKey))?.status).toBe('sent');
  }, 90_000);

  it('does not send again when PostgreSQL refuses the "sent" write after a successful send', async () => {
    const email = 'ledger-refused@example.com';
    await refuseNextSentWrite();
    if (notifiers.every((notifier) => notifier.exitCode !== null || notifier.signalCode !== null)) startNotifier();

    const { jobId, ledgerKey } = await sendMagicLink(email);
    await untilIdle(jobId);
    expect(receivedBy(email)).toHaveLength(1);
    expect((await ledgerRow(ledgerKey))?.status).toBe('sent');
    // The refusal did happen: two deliveries, the refused one and the one that recorded what the first had sent.
    expect((await jobs.queue(QUEUES.mail).getJob(jobId))?.attemptsMade).toBe(2);
    expect((await db.query(`SELECT last_value FROM notifier.sent_refusals`)).rows[0].last_value).toBe('2');
  }, 60_000);

  it('does not notify a device again when PostgreSQL refuses the "sent" write after a successful push', async () => {
    await killAndWait(notifiers);
    const vapid = webpush.generateVAPIDKeys();
    const pushService = await startPushStandIn();
    try {
      startNotifier(sink.url, undefined, 'warn', {
        VAPID_PUBLIC_KEY: vapid.publicKey,
        VAPID_PRIVATE_KEY: vapid.privateKey,
        PUSH_SERVICE_ORIGINS: pushService.url,
      });
      const device = await pushService.newDevice(vapid.publicKey);
      await refuseNextSentWrite();
      const jobId = randomUUID();
      const data = {
        subscription: { endpoint: device.endpoint, keys: device.keys },
        firstName: 'Maya',
        userId: randomUUID(),
        localDate: new Date().toISOString().slice(0, 10),
      };
      await jobs.add([{ job: { queue: QUEUES.push, name: 'spark-reminder-push', data }, jobId }]);
      const queue = jobs.queue(QUEUES.push);
      await eventually(async () => ((await queue.getJob(jobId))?.attemptsMade ?? 0) >= 1, 30_000, 'the delivery whose "sent" write was refused');
      expect(await pushService.pushesTo(device.clientHash)).toHaveLength(1);
      // Without the note on the job, the retries of the next minute would find the claim in flight, and the first after
      // it, taking it over as a dead worker's, would push again: the claim is aged here so that retry comes at once.
      await db.query(
        `UPDATE notifier.sent_emails SET updated_at = now() - interval '61 seconds' WHERE job_name = 'spark-reminder-push' AND status = 'sending'`,
      );
      await eventually(async () => (await queue.getJobState(jobId)) === 'completed', 30_000, `push job ${jobId} to complete`);

      expect(await pushService.pushesTo(device.clientHash)).toHaveLength(1);
      const { rows } = await db.query(`SELECT status FROM notifier.sent_emails WHERE job_name = 'spark-reminder-push'`);
      expect(rows).toEqual([{ status: 'sent' }]);
      expect((await queue.getJob(jobId))?.attemptsMade).toBe(2);
    } finally {
      await pushService.close();
    }
  }, 60_000);

  it('delivers an e-mail queued while the SMTP server was down once it is back, long after the old 8 attempts', async () => {
    const email = 'smtp-outage@example.com';
    await killAndWait(notifiers);
    // The outage is scaled down (retries from 20 ms, capped at 200 ms); the budget itself is retry-budget.spec.ts.
    const port = await freePort();
    startNotifier(`smtp://127.0.0.1:${port}`, { first: '20', max: '200' });
    const { jobId, ledgerKey } = await sendMagicLink(email);
    const queue = jobs.queue(QUEUES.mail);
    await eventually(async () => ((await queue.getJob(jobId))?.attemptsMade ?? 0) >= 12, 30_000, 'a dozen failed deliveries');
    const recovered = await startSmtpSink({ port });
    try {
      await untilIdle(jobId);
      expect(recovered.messages.filter((mail) => mail.to.includes(email))).toHaveLength(1);
      expect((await ledgerRow(ledgerKey))?.status).toBe('sent');
    } finally {
      await recovered.close();
    }
  }, 60_000);

  it('sends nothing to an address erased while its e-mail waited for the SMTP server', async () => {
    const email = `erased-while-waiting-${randomUUID()}@example.com`;
    await killAndWait(notifiers);
    const port = await freePort();
    startNotifier(`smtp://127.0.0.1:${port}`, { first: '20', max: '200' });
    const { jobId } = await sendMagicLink(email);
    const queue = jobs.queue(QUEUES.mail);
    await eventually(async () => ((await queue.getJob(jobId))?.attemptsMade ?? 0) >= 3, 30_000, 'failed deliveries');
    // The account is deleted meanwhile: the notifier's part of the erasure, as its erase job runs it.
    const erasure = new Client({ connectionString: database.url });
    await erasure.connect();
    await erasure.query('BEGIN');
    await eraseIn(erasure, email);
    await erasure.query('COMMIT');
    await erasure.end();
    const recovered = await startSmtpSink({ port });
    try {
      await untilIdle(jobId);
      expect(recovered.messages.filter((mail) => mail.to.includes(email))).toEqual([]);
      expect((await db.query(`SELECT 1 FROM notifier.sent_emails WHERE recipient = $1`, [email])).rowCount).toBe(0);
    } finally {
      await recovered.close();
    }
  }, 60_000);

  it('keeps no trace of an address erased while its e-mail was at the SMTP server, which then refused it quoting the address', async () => {
    const email = `erased-in-flight-${randomUUID()}@example.com`;
    await killAndWait(notifiers);
    startNotifier(sink.url, { first: '20', max: '200' });
    const erasure = new Client({ connectionString: database.url });
    await erasure.connect();
    // The account is erased while the server holds the e-mail, which it then refuses, naming the mailbox as servers do.
    beforeAccepting = async (mail) => {
      if (!mail.to.includes(email)) return;
      beforeAccepting = undefined;
      await erasure.query('BEGIN');
      await eraseIn(erasure, email);
      await erasure.query('COMMIT');
      throw Object.assign(new Error(`4.2.2 <${email}>: Recipient address rejected: mailbox full`), { responseCode: 452 });
    };
    try {
      // As the outbox relay queues it: the job id, which keys the ledger row, is the outbox row's.
      const { jobId } = await sendMagicLink(email, randomUUID());
      await untilIdle(jobId);
      expect(await ledgerRowsNaming(email)).toEqual([]);
    } finally {
      beforeAccepting = undefined;
      await erasure.end();
    }
  }, 60_000);

  it('neither sends nor records an e-mail whose address is erased between its check and its claim', async () => {
    const email = `erased-before-the-claim-${randomUUID()}@example.com`;
    await killAndWait(notifiers);
    startNotifier();
    // Made by a notifier's first start.
    await eventually(async () => (await db.query(`SELECT to_regclass('notifier.sent_emails') AS ledger`)).rows[0].ledger !== null, 30_000, 'the ledger table');
    // Queued a minute before the erasure, the delivery waits on its claim while the erasure runs, and goes on once it
    // committed.
    const erasure = new Client({ connectionString: database.url });
    await erasure.connect();
    try {
      await erasure.query('BEGIN');
      await erasure.query('LOCK TABLE notifier.sent_emails IN EXCLUSIVE MODE');
      const { jobId } = await sendMagicLink(email, randomUUID(), Date.now() - 60_000);
      await eventually(async () => (await lockWaiters(db, 'INSERT INTO notifier.sent_emails')) === 1, 30_000, 'the delivery to wait on its claim');
      await eraseIn(erasure, email);
      await erasure.query('COMMIT');
      await untilIdle(jobId);
      expect(await ledgerRowsNaming(email)).toEqual([]);
      expect(receivedBy(email).length).toBe(0);
    } finally {
      await erasure.end();
    }
  }, 60_000);

  it('holds a spark reminder while no auth-service answers whose account it is for, and sends it once one does', async () => {
    await killAndWait(notifiers);
    const startAuth = () => startReplica('auth-service/src/main', { DATABASE_URL: database.url, BUS_PREFIX: busPrefix });
    // Its first start makes its tables, for the client's account; then it is gone.
    await killAndWait([await startAuth()]);
    const email = 'reminded-during-an-auth-outage@example.com';
    const userId = await insertUser(db, { email, fullName: 'Rita Moreno' });
    startNotifier(sink.url, { first: '200', max: '1000' });
    const jobId = randomUUID();
    const data = {
      userId,
      email,
      localDate: new Date().toISOString().slice(0, 10),
      sealed: await sealer.seal('spark-reminder', email, { unsubscribeToken: randomUUID() }),
    };
    await jobs.add([{ job: { queue: QUEUES.mail, name: 'spark-reminder', data }, jobId }]);
    const queue = jobs.queue(QUEUES.mail);
    await eventually(async () => ((await queue.getJob(jobId))?.attemptsMade ?? 0) >= 1, 30_000, 'a delivery the auth-service did not answer');
    expect((await queue.getJob(jobId))?.failedReason).toMatch(/auth/);
    expect(await queue.getJobState(jobId)).not.toBe('failed');
    expect(receivedBy(email)).toEqual([]);

    const auth = await startAuth();
    try {
      await untilIdle(jobId);
      expect(receivedBy(email).map((mail) => mail.text.split('\n')[0])).toEqual([
        'Hi Rita, no spark yet today. One photo or a line about a small win keeps your streak going.',
      ]);
    } finally {
      await killAndWait([auth]);
    }
  }, 90_000);

  // Account erasure reaches the e-mail ledger, not the log collector: the job's name and id find an e-mail in the ledger.
  it('logs an e-mail it sent by its job, never by its address', async () => {
    await killAndWait(notifiers);
    const { logLines } = startNotifier(sink.url, undefined, 'info');
    const email = 'logged-send@example.com';
    // As the outbox relay queues it: the job id is the outbox row's.
    const { jobId } = await sendMagicLink(email, randomUUID());
    await untilIdle(jobId);
    const sent = await eventually(
      () => logLines.map((line) => JSON.parse(line) as Record<string, unknown>).find((entry) => entry.msg === 'e-mail sent' && entry.jobId === jobId),
      10_000,
      "the notifier's 'e-mail sent' line",
    );
    expect(logLines.join('\n')).not.toContain(email);
    expect(sent).toMatchObject({ job: 'magic-link', jobId });
  }, 60_000);

  it("sends an hour's digest of the leads past the cap once when the notifier dies after the SMTP server took it", async () => {
    await killAndWait(notifiers);
    startNotifier(sink.url, undefined, 'warn', { LEAD_ALERTS_PER_HOUR: '1' });
    const windowStart = await hourToSubmitIn();
    const queue = jobs.queue(QUEUES.mail);
    // One at a time, so the first is the hour's one alert and the other two are gathered.
    for (const email of ['digest-first@example.com', 'digest-a@example.com', 'digest-b@example.com']) {
      const visitor = { email, role: 'client' as const, interest: null };
      const data = {
        ...visitor,
        leadId: randomUUID(),
        createdAt: new Date().toISOString(),
        submission: signedLeadSubmission(developmentSigningKeys(), visitor),
      };
      const jobId = randomUUID();
      await jobs.addChecked([{ job: { queue: QUEUES.mail, name: 'lead-alert', data }, jobId }]);
      await eventually(async () => (await queue.getJobState(jobId)) === 'completed', 30_000, `the alert of ${email}`);
    }
    const digests = () => sink.messages.filter((mail) => mail.subject.startsWith('2 more leads'));
    const ledgerKey = `${QUEUES.mail}:lead-alert-digest:${windowStart}`;
    const digestJobId = `lead-alert-digest-${windowStart}`;
    await killBetweenSendAndRecord(ledgerKey, notifiers, "the digest's ledger write to wait on the row", async () => {
      await (await queue.getJob(digestJobId))?.promote();
    });

    startNotifier();
    await untilIdle(digestJobId);
    expect(digests()).toHaveLength(1);
    expect(digests()[0]?.text).toMatch(/digest-a@example\.com[\s\S]*digest-b@example\.com/);
    expect(await ledgerRow(ledgerKey)).toEqual({ status: 'sent', message_id: digests()[0]?.messageId });
    const kept = await db.query(`SELECT email FROM notifier.lead_alert_decisions WHERE window_start = $1 AND email IS NOT NULL`, [new Date(windowStart)]);
    expect(kept.rows).toEqual([]);
  }, 150_000);
});
