import { developmentSigningKeys } from '@spark/config';
import { createLeadResponseSchema, errorBodySchema, type JobPayload, leadSchema, QUEUES } from '@spark/contracts';
import { JobQueues } from '@spark/jobs';
import { eventually, uniquePrefix } from '@spark/testing';
import { Client } from 'pg';
import { startGateway } from '../../gateway/src/main';
import { type InProcessStack, startInProcessStack } from './in-process-stack';
import { untilIdle } from './until-idle';

const postLead = (stack: InProcessStack, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${stack.baseUrl}/api/leads`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

// Every answer is read through its contract schema, so a test also fails when a shape drifts.
const readCreated = async (response: Response) => createLeadResponseSchema.parse(await response.json());
const readError = async (response: Response) => errorBodySchema.parse(await response.json());

describe('the interest form, from HTTP to two e-mails', () => {
  let stack: InProcessStack;
  let db: Client;
  const leadCount = async (email: string) => Number((await db.query('SELECT count(*) FROM leads.leads WHERE email = $1', [email])).rows[0].count);
  const mailsTo = (address: string) => stack.smtp.messages.filter((mail) => mail.to.includes(address));

  beforeAll(async () => {
    stack = await startInProcessStack({ redisDb: 7, env: { OUTBOX_RECONCILE_MS: '300' } });
    db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await stack.stop();
  });

  it('stores a pending lead and sends the confirmation and the team alert', async () => {
    const response = await postLead(stack, { email: '  Ada@Example.COM ', role: 'coach', interest: 'Grow my practice' });
    expect(response.status).toBe(201);
    const body = await readCreated(response);
    expect(body.lead).toMatchObject({ email: 'ada@example.com', role: 'coach', approvalStatus: 'pending', userCreated: false });
    expect(body.challengeToken).toMatch(/^[\w-]{43}$/);
    const { rows } = await db.query('SELECT role, interest, approval_status FROM leads.leads WHERE email = $1', ['ada@example.com']);
    expect(rows).toEqual([{ role: 'coach', interest: 'Grow my practice', approval_status: 'pending' }]);

    await stack.smtp.waitFor(2);
    const [confirmation] = mailsTo('ada@example.com');
    expect(confirmation?.subject).toBe('We received your interest in The Spark');
    expect(confirmation?.text).toContain('48-72 hours');
    const [alert] = mailsTo('alerts@spark.test');
    expect(alert?.subject).toBe('New coach lead: ada@example.com');
    expect(alert?.text).toContain('Grow my practice');
  });

  it.each([
    [{ role: 'client' }, 'email'],
    [{ email: 'not-an-email', role: 'client' }, 'email'],
    [{ email: 'bad-role@example.com', role: 'admin' }, 'role'],
  ])('answers %j with 400 naming the field %s, and writes nothing', async (input, field) => {
    const response = await postLead(stack, input);
    expect(response.status).toBe(400);
    const body = await readError(response);
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(Object.keys(body.fieldErrors ?? {})).toContain(field);
    expect(await leadCount('bad-role@example.com')).toBe(0);
  });

  it('answers a second submission of the same e-mail with 409 LEAD_EXISTS, without a second row or e-mail', async () => {
    expect((await postLead(stack, { email: 'twice@example.com' })).status).toBe(201);
    await stack.smtp.waitFor(4);
    const again = await postLead(stack, { email: 'TWICE@example.com', role: 'coach' });
    expect(again.status).toBe(409);
    expect((await readError(again)).code).toBe('LEAD_EXISTS');
    await untilIdle(stack);
    expect(await leadCount('twice@example.com')).toBe(1);
    expect(mailsTo('twice@example.com')).toHaveLength(1);
  });

  it('refuses a body over 16 KiB with 413', async () => {
    const response = await postLead(stack, { email: 'big@example.com', interest: 'x'.repeat(17 * 1024) });
    expect(response.status).toBe(413);
    expect((await readError(response)).code).toBe('PAYLOAD_TOO_LARGE');
    expect(await leadCount('big@example.com')).toBe(0);
  });

  it('answers malformed JSON with 400, not 500', async () => {
    const response = await postLead(stack, '{"email":');
    expect(response.status).toBe(400);
  });

  it('lets only the holder of the lead-scoped token set the primary challenge', async () => {
    const created = await readCreated(await postLead(stack, { email: 'challenge@example.com' }));
    const patch = (token: string) =>
      fetch(`${stack.baseUrl}/api/leads/challenge`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token, primaryChallenge: 'motivation' }),
      });
    const forged = await patch('x'.repeat(43));
    expect(forged.status).toBe(403);
    expect((await db.query(`SELECT primary_challenge FROM leads.leads WHERE email = 'challenge@example.com'`)).rows[0].primary_challenge).toBeNull();

    const allowed = await patch(created.challengeToken);
    expect(allowed.status).toBe(200);
    expect(leadSchema.parse(await allowed.json()).primaryChallenge).toBe('motivation');
  });

  it('still sends both e-mails exactly once when Redis is flushed after the insert', async () => {
    await stack.stopNotifier();
    const before = stack.smtp.messages.length;
    expect((await postLead(stack, { email: 'flushed@example.com' })).status).toBe(201);
    // Wait until the relay has handed both jobs to BullMQ, then lose everything Redis held.
    const dispatched = async () =>
      Number((await db.query(`SELECT count(*) FROM leads.outbox WHERE payload->>'email' = 'flushed@example.com' AND dispatched_at IS NOT NULL`)).rows[0].count);
    await eventually(async () => (await dispatched()) >= 2, 5_000, 'both outbox rows to be dispatched');
    await stack.redis.flushdb();
    await stack.startNotifier();
    await stack.smtp.waitFor(before + 2, 20_000);
    await untilIdle(stack);
    expect(mailsTo('flushed@example.com')).toHaveLength(1);
    expect(stack.smtp.messages.filter((mail) => mail.subject === 'New client lead: flushed@example.com')).toHaveLength(1);
  });

  it('sends both e-mails when Redis loses the jobs but keeps its marker (a partial loss), and proves them finished', async () => {
    await stack.stopNotifier();
    expect((await postLead(stack, { email: 'partly-lost@example.com' })).status).toBe(201);
    const rowsOf = async () =>
      (
        await db.query<{ id: string; dispatched: boolean; confirmed: boolean }>(
          `SELECT id, dispatched_at IS NOT NULL AS dispatched, confirmed_at IS NOT NULL AS confirmed FROM leads.outbox WHERE payload->>'email' = 'partly-lost@example.com'`,
        )
      ).rows;
    await eventually(async () => (await rowsOf()).filter((row) => row.dispatched).length >= 2, 5_000, 'both outbox rows to be dispatched');
    // The jobs' keys go, the relay's "Redis kept its data" marker stays: only the reconciler can notice.
    const jobs = new JobQueues(stack.redis, stack.env.BUS_PREFIX ?? '');
    for (const { id } of await rowsOf()) await jobs.queue(QUEUES.mail).remove(id);
    await jobs.close();
    await stack.startNotifier();
    // Idle: both rows confirmed, i.e. BullMQ reported both jobs finished.
    await eventually(async () => (await rowsOf()).every((row) => row.confirmed), 20_000, 'the re-dispatched jobs to be confirmed finished');
    expect(mailsTo('partly-lost@example.com')).toHaveLength(1);
    expect(stack.smtp.messages.filter((mail) => mail.subject === 'New client lead: partly-lost@example.com')).toHaveLength(1);
  });

  // The OpenAPI document and metrics are on the internal port: apps/system-tests/src/edge.int-spec.ts.
  it('answers readiness on the public port', async () => {
    expect((await fetch(`${stack.baseUrl}/health/ready`)).status).toBe(200);
  });

  it('sends one e-mail when the same job is delivered twice', async () => {
    const created = await readCreated(await postLead(stack, { email: 'twice-delivered@example.com' }));
    const { rows } = await db.query(`SELECT id, payload FROM leads.outbox WHERE payload->>'leadId' = $1 AND job_name = 'lead-confirmation'`, [created.lead.id]);
    const { id: jobId, payload } = rows[0] as { id: string; payload: JobPayload<'mail', 'lead-confirmation'> };
    const jobs = new JobQueues(stack.redis, stack.env.BUS_PREFIX as string, developmentSigningKeys());
    const queue = jobs.queue(QUEUES.mail);
    const delivered = (what: string) => eventually(async () => (await queue.getJobState(jobId)) === 'completed', 15_000, what);
    // The worker holds the job's lock until it has recorded the send, so the job can be removed only once completed.
    await delivered('the first delivery to complete');
    await (await queue.getJob(jobId))?.remove();
    await jobs.add([{ jobId, job: { queue: 'mail', name: 'lead-confirmation', data: payload } }]);
    await delivered('the second delivery to complete');
    expect(mailsTo('twice-delivered@example.com')).toHaveLength(1);
    await jobs.close();
  });
});

describe('a request to a service that is down', () => {
  it('ends as 503 with a JSON error naming the service, within the deadline', async () => {
    const gateway = await startGateway({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      PORT: '0',
      HOST: '127.0.0.1',
      BUS_PREFIX: uniquePrefix('nobody-home'),
      BUS_TIMEOUT_MS: '400',
    });
    try {
      const started = Date.now();
      const response = await fetch(`${gateway.url.replace('[::1]', '127.0.0.1')}/api/leads`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'nobody@example.com' }),
      });
      const elapsed = Date.now() - started;
      expect(response.status).toBe(503);
      expect(await readError(response)).toMatchObject({ code: 'SERVICE_UNAVAILABLE', service: 'leads-service' });
      expect(elapsed).toBeGreaterThanOrEqual(390);
      expect(elapsed).toBeLessThan(1500);
    } finally {
      await gateway.stop();
    }
  });
});
