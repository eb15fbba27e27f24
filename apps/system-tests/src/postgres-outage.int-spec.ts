import { createLeadResponseSchema, errorBodySchema } from '@spark/contracts';
import { eventually, type PrivatePostgres, startPrivatePostgres } from '@spark/testing';
import { Client } from 'pg';
import { type InProcessStack, startInProcessStack } from './in-process-stack';

const postLead = (stack: InProcessStack, email: string) =>
  fetch(`${stack.baseUrl}/api/leads`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });

/**
 * The interest form while PostgreSQL is down, on a server of the test's own that it stops the way a crash does:
 * every answer is an error or a 201 whose lead and both e-mails exist, never a 201 without them.
 */
describe('submitting interest while PostgreSQL is down', () => {
  let postgres: PrivatePostgres;
  let stack: InProcessStack;

  const query = async (sql: string, email: string) => {
    const db = new Client({ connectionString: postgres.url });
    await db.connect();
    try {
      return Number((await db.query(sql, [email])).rows[0].count);
    } finally {
      await db.end();
    }
  };
  const leadRows = (email: string) => query(`SELECT count(*) FROM leads.leads WHERE email = $1`, email);
  /** Idle for this lead: both of its jobs reported finished by BullMQ (the outbox's reconcile confirms them). */
  const unfinishedJobs = (email: string) => query(`SELECT count(*) FROM leads.outbox WHERE payload->>'email' = $1 AND confirmed_at IS NULL`, email);
  const mailsAbout = (email: string) => stack.smtp.messages.filter((mail) => mail.to.includes(email) || mail.subject === `New client lead: ${email}`);

  beforeAll(async () => {
    postgres = await startPrivatePostgres();
    stack = await startInProcessStack({ databaseUrl: postgres.url, env: { BUS_TIMEOUT_MS: '3000', OUTBOX_RECONCILE_MS: '300' } });
  }, 60_000);
  afterAll(async () => {
    await stack.stop();
    await postgres.destroy();
  });

  it('answers 503 and stores nothing, then takes the same address once PostgreSQL is back, with its two e-mails', async () => {
    await postgres.stop();
    const during = await postLead(stack, 'during-outage@example.com');
    expect(during.status).toBe(503);
    expect(errorBodySchema.parse(await during.json()).code).toBe('SERVICE_UNAVAILABLE');

    await postgres.start();
    const after = await eventually(
      async () => {
        const response = await postLead(stack, 'during-outage@example.com');
        return response.status === 503 ? undefined : response;
      },
      30_000,
      'the service to reconnect',
    );
    expect(after.status).toBe(201);
    expect(createLeadResponseSchema.parse(await after.json()).lead.email).toBe('during-outage@example.com');
    await eventually(async () => (await unfinishedJobs('during-outage@example.com')) === 0, 30_000, 'both jobs to finish');
    expect(await leadRows('during-outage@example.com')).toBe(1);
    expect(mailsAbout('during-outage@example.com')).toHaveLength(2);
  }, 90_000);
});
