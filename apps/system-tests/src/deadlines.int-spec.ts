import { join } from 'node:path';
import { createLeadResponseSchema } from '@spark/contracts';
import { requestStreamKey } from '@spark/messaging';
import { eventually } from '@spark/testing';
import { Client } from 'pg';
import { type ReplicaBed, openReplicaBed } from './replica-bed';
import { leadCommand } from './lead-command';

/** Deadlines as a caller means them: a 503 says "not done", and no host's clock decides what is late. */
describe('request deadlines between processes', () => {
  let bed: ReplicaBed;
  const leadsOf = async (email: string) => Number((await bed.db.query(`SELECT count(*)::int AS n FROM leads.leads WHERE email = $1`, [email])).rows[0].n);
  const replica = (extraEnv: NodeJS.ProcessEnv = {}) => bed.replica('leads-service/src/main', extraEnv);

  beforeAll(async () => {
    bed = await openReplicaBed('deadline', { requestTimeoutMs: 5_000 });
  });
  // Each case has its own replica: one left running would answer the next case's requests.
  afterEach(() => bed.killReplicas());
  afterAll(() => bed?.close());

  it('a submit held 8 s by a table lock answers 503 and commits nothing, even after the lock is gone', async () => {
    await replica();
    const lock = new Client({ connectionString: bed.databaseUrl });
    await lock.connect();
    await lock.query('BEGIN');
    await lock.query('LOCK TABLE leads.leads IN EXCLUSIVE MODE');
    const started = Date.now();
    const answer = bed.client.request('leads.create', leadCommand('held@example.com'));
    await expect(answer).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 8_000 - (Date.now() - started))));
    await lock.query('COMMIT');
    await lock.end();
    // Idle: the request is answered and acknowledged, so nothing of it can still commit.
    const stream = requestStreamKey(bed.env.BUS_PREFIX ?? '', 'leads');
    await eventually(async () => ((await bed.redis.xpending(stream, 'leads')) as [number])[0] === 0, 30_000, 'the request to be acknowledged');
    expect(await leadsOf('held@example.com')).toBe(0);
  }, 60_000);

  it('a service whose clock runs 6 s ahead of its caller still answers in time', async () => {
    await replica({ NODE_OPTIONS: `--require ${join(__dirname, 'fixtures/clock-skew.cjs')}`, CLOCK_SKEW_MS: '6000' });
    const answer = createLeadResponseSchema.parse(await bed.client.request('leads.create', leadCommand('ahead@example.com')));
    expect(answer.lead.email).toBe('ahead@example.com');
    expect(await leadsOf('ahead@example.com')).toBe(1);
  }, 60_000);
});
