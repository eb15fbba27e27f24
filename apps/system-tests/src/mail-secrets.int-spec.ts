import { randomUUID } from 'node:crypto';
import { authEnv, developmentSigningKeys, loadConfig } from '@spark/config';
import { QUEUES } from '@spark/contracts';
import { type JobRequest, JobQueues, MailSealer, signedJobData } from '@spark/jobs';
import { signedDitlRequest } from '@spark/messaging';
import { eventually } from '@spark/testing';
import { Client } from 'pg';
import { createSignedInUser, TEST_JWT_SECRET } from './ditl-auth';
import { type InProcessStack, startInProcessStack } from './in-process-stack';

/**
 * Every service that queues e-mail may read the mail queue (deploy/redis/users.acl), and every service reaches the
 * outbox rows on their way there. What lets its reader act for the recipient (a sign-in link and code, an account
 * deletion's confirmation, a signed download link, an investor's deck access code) must not be readable in either:
 * only the notifier opens it.
 */
describe('secrets in e-mail jobs', () => {
  let stack: InProcessStack;
  let db: Client;
  let jobs: JobQueues;

  beforeAll(async () => {
    stack = await startInProcessStack({ env: { JWT_SECRET: TEST_JWT_SECRET } });
    db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
    jobs = new JobQueues(stack.redis, stack.env.BUS_PREFIX ?? '', developmentSigningKeys());
  });
  afterAll(async () => {
    await jobs?.close();
    await db?.end();
    await stack?.stop();
  });

  const call = (method: string, path: string, body?: unknown, token?: string) =>
    fetch(`${stack.baseUrl}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const mailTo = async (address: string, subject: RegExp) => {
    const mail = await eventually(
      () => stack.smtp.messages.find((sent) => sent.to.includes(address) && subject.test(sent.subject)),
      15_000,
      `an e-mail to ${address}`,
    );
    return mail?.text ?? '';
  };
  const match = (text: string, pattern: RegExp) => {
    const found = pattern.exec(text)?.[1];
    if (!found) throw new Error(`${pattern} not in the e-mail:\n${text}`);
    return found;
  };

  /** Everything stored about mail jobs: the mail queue's job hashes in Redis and every service's outbox rows. */
  async function storedMailJobs(): Promise<string> {
    const prefix = stack.env.BUS_PREFIX ?? '';
    const hashes: string[] = [];
    for await (const keys of stack.redis.scanStream({ match: `${prefix}:bull:mail:*`, count: 500 }) as AsyncIterable<string[]>) {
      for (const key of keys) if ((await stack.redis.type(key)) === 'hash') hashes.push(JSON.stringify(await stack.redis.hgetall(key)));
    }
    const schemas = await db.query<{ table_schema: string }>(`SELECT table_schema FROM information_schema.tables WHERE table_name = 'outbox'`);
    const payloads: string[] = [];
    for (const { table_schema } of schemas.rows) {
      const rows = await db.query<{ payload: string }>(`SELECT payload::text FROM "${table_schema}".outbox`);
      payloads.push(...rows.rows.map(({ payload }) => payload));
    }
    return [...hashes, ...payloads].join('\n');
  }

  it('keeps the sign-in link and code, the deletion confirmation and the export link out of the mail queue and the outboxes', async () => {
    await createSignedInUser(db, 'sealed-sign-in@example.com');
    expect((await call('POST', '/api/auth/magic-link', { email: 'sealed-sign-in@example.com' })).status).toBe(202);
    const signIn = await mailTo('sealed-sign-in@example.com', /sign-in link/);

    const deleting = await createSignedInUser(db, 'sealed-delete@example.com');
    expect((await call('POST', '/api/me/account-deletion', undefined, deleting.token)).status).toBe(202);
    const deletion = await mailTo('sealed-delete@example.com', /Confirm deleting your Spark account/);

    const exporting = await createSignedInUser(db, 'sealed-export@example.com');
    expect((await call('POST', '/api/progress/me/export', undefined, exporting.token)).status).toBe(202);
    const exported = await mailTo('sealed-export@example.com', /Your Spark data is ready/);

    const secrets = [
      match(signIn, /#token=([\w-]+)/),
      `"${match(signIn, /code on the sign-in page: (\d{6})/)}"`,
      match(deletion, /#token=([\w-]+)/),
      match(exported, /X-Amz-Signature=([0-9a-f]+)/),
    ];
    const stored = await storedMailJobs();
    // What is read is the jobs themselves: their recipients are there.
    for (const address of ['sealed-sign-in@example.com', 'sealed-delete@example.com', 'sealed-export@example.com']) expect(stored).toContain(address);
    for (const secret of secrets) expect(stored).not.toContain(secret);
  });

  it("keeps an investor's access code, sent in a campaign e-mail, out of the mail queue, the outboxes and the stored campaign", async () => {
    // The admin's "Send Code": a one-investor campaign whose body holds the code, which with the address opens the deck.
    const { token: admin } = await createSignedInUser(db, 'sealed-admin@example.com', 'admin');
    const email = 'sealed-investor@fund.test';
    const added = await call('POST', '/api/investors', { email }, admin);
    expect(added.status).toBe(201);
    const { id } = (await added.json()) as { id: string };
    const generated = await call('POST', `/api/investors/${id}/access-code`, undefined, admin);
    expect(generated.status).toBe(200);
    const { accessCode } = (await generated.json()) as { accessCode: string };
    const body = `Hello,\n\nYour access code for the Spark deck: ${accessCode}\n\n(lower case works too: ${accessCode.toLowerCase()})`;
    const sent = await call('POST', '/api/investors/emails', { emails: [email], subject: 'Your Spark deck access code', body }, admin);
    expect(sent.status).toBe(200);

    // The investor still gets it.
    expect(await mailTo(email, /Your Spark deck access code/)).toContain(accessCode);

    const { rows } = await db.query<{ body: string }>(`SELECT subject, body FROM investor.campaigns`);
    const stored = [await storedMailJobs(), JSON.stringify(rows)].join('\n');
    expect(stored).toContain(email);
    for (const form of [accessCode, accessCode.replaceAll('-', '')]) expect(stored.toUpperCase()).not.toContain(form);
    // The admin's record still reads as the message sent, the code shown as a placeholder.
    expect(rows.find((row) => row.body.startsWith('Hello,'))?.body).toContain('Your access code for the Spark deck: [access code]');
  });

  // Any service that queues mail holds the public key, so it could seal a link of its own choosing.
  const sealer = () => new MailSealer(loadConfig(authEnv, {}).MAIL_SEAL_PUBLIC_KEY);
  /** The job, signed as its producer signs, fails at its first attempt for `reason`, and nothing reaches `email`. */
  const failsForGoodUnsent = async (job: JobRequest, jobId: string, email: string, reason: RegExp) => {
    const queue = jobs.queue(QUEUES.mail);
    // As a compromised producer queues it: signed with its own key, past the checks its own code makes.
    await queue.add(job.name, signedJobData(developmentSigningKeys(), job, jobId), { jobId });
    await eventually(async () => ((await queue.getJobState(jobId)) === 'failed' ? true : undefined), 15_000, 'the job to fail');
    const failed = await queue.getJob(jobId);
    expect(failed?.failedReason).toMatch(reason);
    expect(failed?.attemptsMade).toBe(1);
    expect(stack.smtp.messages.filter((mail) => mail.to.includes(email))).toEqual([]);
  };

  it("refuses for good a sealed sign-in e-mail whose link leads off the product's site", async () => {
    const email = 'phished@example.com';
    const sealed = await sealer().seal('magic-link', email, { link: 'https://spark-signin.example/magic-link-auth#token=abc', code: '246810' });
    const data = { email, expiresAt: new Date(Date.now() + 3_600_000).toISOString(), purpose: 'sign-in' as const, sealed };
    await failsForGoodUnsent({ queue: QUEUES.mail, name: 'magic-link', data }, 'magic-link-off-site', email, /not on the product's site/);
  });

  it("refuses for good a sealed export e-mail whose link leads off the product's storage", async () => {
    // The progress service seals its own download link, so taken over it could send "your data is ready" with any link.
    const { id: userId, email } = await createSignedInUser(db, 'phished-export@example.com');
    const sealed = await sealer().seal('data-export-ready', email, { downloadUrl: 'https://spark-exports.example/spark-data.zip' });
    const data = { userId, email, expiresAt: new Date(Date.now() + 86_400_000).toISOString(), sealed };
    await failsForGoodUnsent(
      { queue: QUEUES.mail, name: 'data-export-ready', data },
      'export-off-storage',
      email,
      /not to the client's own archive in the product's storage/,
    );
  });

  it('refuses for good a Day in the Life e-mail whose greeting is longer than any first name a client can give', async () => {
    // The ditl-service writes the greeting's name into the job, so taken over it could otherwise mail a text of its own there.
    const email = 'phished-ditl@example.com';
    const firstName = `Ada, your account is locked. Confirm it within the hour at https://spark-verify.example/confirm or lose your streak`;
    // Even with a statement of it: the gateway's onboarding never takes such a name.
    const requested = signedDitlRequest(developmentSigningKeys(), { email, firstName });
    const data = { generationId: randomUUID(), email, firstName, requested };
    await failsForGoodUnsent({ queue: QUEUES.mail, name: 'ditl-ready', data }, 'ditl-long-greeting', email, /Invalid payload.*firstName/s);
  });
});
