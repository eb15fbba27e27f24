import { developmentSigningKeys } from '@spark/config';
import { createLogger } from '@spark/logging';
import { deletionParts, type RequestOf } from '@spark/contracts';
import { DomainError } from '@spark/errors';
import { EXPORT_GRANT_VALID_MS, INVITE_APPROVAL_VALID_MS, RedisStreamsClient, ServiceBus, ServiceUnavailableError, signedExportGrant } from '@spark/messaging';
import { insertUser } from '@spark/testing';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { type InProcessStack, startInProcessStack } from './in-process-stack';
import { approvedInvite } from './invite-approval';

/**
 * Every service may write to the streams of the services it calls (deploy/redis/users.acl), and Redis cannot tell
 * which request it adds. So a service answers only the requests the one app that sent them signed, and only the
 * patterns that app has business sending: a compromised leads-service could otherwise make anyone an admin.
 */
describe('bus requests only from who may send them', () => {
  let stack: InProcessStack;
  let db: Client;
  const clients: RedisStreamsClient[] = [];

  beforeAll(async () => {
    stack = await startInProcessStack({});
    db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await db?.end();
    await stack?.stop();
  });

  /** A bus client as `app` runs it, holding that app's keys (a compromised app holds its own). */
  const busAs = async (app: string, signingKeys = developmentSigningKeys()) => {
    const client = new RedisStreamsClient({
      app,
      redisUrl: stack.env.REDIS_URL ?? '',
      prefix: stack.env.BUS_PREFIX ?? '',
      timeoutMs: 2000,
      logger: createLogger('bus-callers-test', 'silent'),
      signingKeys,
    });
    clients.push(client);
    await client.connect();
    return new ServiceBus(client);
  };
  const roleOf = async (id: string) => (await db.query<{ role: string }>('SELECT role FROM auth.users WHERE id = $1', [id])).rows[0]?.role;

  it('refuses a pattern the sending service has no business sending: the leads-service making someone an admin', async () => {
    const admin = await insertUser(db, { email: 'the-admin@example.com', role: 'admin' });
    const insider = await insertUser(db, { email: 'leads-insider@example.com', role: 'client' });
    const leads = await busAs('leads');

    await expect(leads.request('auth.set-role', { actorId: admin, userId: insider, role: 'admin' })).rejects.toThrow(ServiceUnavailableError);
    expect(await roleOf(insider)).toBe('client');
  });

  it('refuses a request in the name of the gateway that the gateway did not sign', async () => {
    const admin = await insertUser(db, { email: 'another-admin@example.com', role: 'admin' });
    const insider = await insertUser(db, { email: 'posing-as-gateway@example.com', role: 'client' });
    // What the leads-service holds, used for the gateway's pair.
    const leadsKey = developmentSigningKeys().get('bus:auth/leads') ?? [];
    const posing = await busAs('gateway', new Map([['bus:auth/gateway', leadsKey]]));

    await expect(posing.request('auth.set-role', { actorId: admin, userId: insider, role: 'admin' })).rejects.toThrow(ServiceUnavailableError);
    expect(await roleOf(insider)).toBe('client');
  });

  it('refuses from the gateway what only services send: an invitation that no approved lead asked for', async () => {
    const gateway = await busAs('gateway');
    const email = `gateway-invited-${randomUUID()}@example.com`;

    await expect(gateway.request('auth.invite', approvedInvite({ email, role: 'coach' }))).rejects.toThrow(ServiceUnavailableError);
    expect((await db.query('SELECT 1 FROM auth.users WHERE email = $1', [email])).rowCount).toBe(0);
  });

  it('answers what a service does need, signed by it: the leads-service inviting a lead a coach approved', async () => {
    const leads = await busAs('leads');
    const email = `invited-${randomUUID()}@example.com`;
    const { userId } = await leads.request('auth.invite', approvedInvite({ email, role: 'client' }, 'coach'));
    expect(await roleOf(userId)).toBe('client');
  });

  describe('the progress service reading what no export asked for', () => {
    it('reads no account and no Day in the Life of someone who asked for no export', async () => {
      const client = await insertUser(db, { email: `asked-for-nothing-${randomUUID()}@example.com`, role: 'client' });
      const progress = await busAs('progress');

      await expect(progress.request('auth.get-user', { userId: client })).rejects.toThrow(ServiceUnavailableError);
      await expect(progress.request('ditl.current', { userId: client })).rejects.toThrow(ServiceUnavailableError);
    });

    it("hands over a client's account and Day in the Life for the export the gateway granted", async () => {
      const email = `exporting-${randomUUID()}@example.com`;
      const client = await insertUser(db, { email, role: 'client' });
      const progress = await busAs('progress');
      const grant = signedExportGrant(developmentSigningKeys(), { userId: client, email });

      expect(await progress.request('auth.export-account', { userId: client, grant })).toMatchObject({ id: client, email });
      expect(await progress.request('ditl.export-presentation', { userId: client, grant })).toEqual({ generation: null, html: null, next: null });
      expect(await progress.request('leads.export-lead', { userId: client, grant })).toBeNull();
      expect(await progress.request('investor.export-investor', { userId: client, grant })).toBeNull();
    });

    // Each refused request names the victim, whose lead and investor entry are there to be taken.
    const grantFor = (person: string, grantedAt?: number, keys = developmentSigningKeys()) =>
      signedExportGrant(keys, { userId: person, email: `${person}@example.com` }, grantedAt);
    it.each([
      ['a grant for another client', (victim: string, asker: string) => ({ userId: victim, grant: grantFor(asker) })],
      ['a grant changed after signing', (victim: string, asker: string) => ({ userId: victim, grant: { ...grantFor(asker), userId: victim } })],
      [
        "a grant whose address was changed to the victim's after signing",
        (victim: string, asker: string) => ({ userId: asker, grant: { ...grantFor(asker), email: `${victim}@example.com` } }),
      ],
      [
        'a grant signed with another key',
        (victim: string) => {
          const progressKeys = developmentSigningKeys();
          const posing = new Map(
            (['auth', 'ditl', 'leads', 'investor'] as const).map((service) => [`bus:${service}/gateway`, progressKeys.get(`bus:${service}/progress`) ?? []]),
          );
          return { userId: victim, grant: grantFor(victim, undefined, posing) };
        },
      ],
      ['a grant long past', (victim: string) => ({ userId: victim, grant: grantFor(victim, Date.now() - EXPORT_GRANT_VALID_MS - 60_000) })],
    ])('refuses %s, from every service', async (_case, requestOf) => {
      const victim = await insertUser(db, { email: `not-exported-${randomUUID()}@example.com`, role: 'client' });
      const asker = await insertUser(db, { email: `exported-${randomUUID()}@example.com`, role: 'client' });
      await db.query(`INSERT INTO leads.leads (id, email, role, company) VALUES ($1, $2, 'client', 'Victim AB')`, [randomUUID(), `${victim}@example.com`]);
      await db.query(`INSERT INTO investor.investors (id, email, interest) VALUES ($1, $2, 'the victim''s words')`, [randomUUID(), `${victim}@example.com`]);
      const progress = await busAs('progress');
      const request = requestOf(victim, asker);

      await expect(progress.request('auth.export-account', request)).rejects.toMatchObject({ code: 'FORBIDDEN' });
      await expect(progress.request('ditl.export-presentation', request)).rejects.toMatchObject({ code: 'FORBIDDEN' });
      await expect(progress.request('leads.export-lead', request)).rejects.toMatchObject({ code: 'FORBIDDEN' });
      await expect(progress.request('investor.export-investor', request)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    });
  });

  describe('the leads-service inviting what nobody approved', () => {
    const accountOf = async (email: string) => (await db.query('SELECT role FROM auth.users WHERE email = $1', [email])).rows;
    const victim = () => `approved-${randomUUID()}@example.com`;
    const attacker = () => `leads-insider-${randomUUID()}@example.com`;

    it('makes no account without an approval: a coach of its own choosing', async () => {
      const leads = await busAs('leads');
      const email = attacker();
      const unapproved = { email, role: 'coach' } as unknown as RequestOf<'auth.invite'>;

      await expect(leads.request('auth.invite', unapproved)).rejects.toThrow(DomainError);
      expect(await accountOf(email)).toEqual([]);
    });

    it.each([
      ['approved for another address', () => ({ ...approvedInvite({ email: victim(), role: 'client' }, 'coach'), email: attacker() })],
      ['approved as a client, asked as a coach', () => ({ ...approvedInvite({ email: attacker(), role: 'client' }, 'admin'), role: 'coach' as const })],
      ['a coach approved by a coach', () => approvedInvite({ email: attacker(), role: 'coach' }, 'coach')],
      [
        'an approval changed after signing',
        () => {
          const invite = approvedInvite({ email: victim(), role: 'client' }, 'coach');
          const email = attacker();
          return { ...invite, email, approval: { ...invite.approval, email } };
        },
      ],
      [
        'an approval long past',
        () => {
          const email = attacker();
          return approvedInvite({ email, role: 'client' }, 'coach', Date.now() - INVITE_APPROVAL_VALID_MS - 60_000);
        },
      ],
    ])('refuses %s, and makes no account', async (_case, invite) => {
      const leads = await busAs('leads');
      const request = invite();

      await expect(leads.request('auth.invite', request)).rejects.toMatchObject({ code: 'FORBIDDEN' });
      expect(await accountOf(request.email)).toEqual([]);
    });
  });

  describe('a service reporting a deletion part it did not erase', () => {
    const partsOf = async (deletionId: string) =>
      (
        await db.query<{ part: string; done: boolean }>(
          'SELECT part, done_at IS NOT NULL AS done FROM auth.account_deletion_parts WHERE deletion_id = $1 ORDER BY part',
          [deletionId],
        )
      ).rows;
    /** A confirmed deletion whose own part (the account) is erased, and every service's part still to do. */
    const confirmedDeletion = async () => {
      const deletionId = randomUUID();
      await db.query(`INSERT INTO auth.account_deletions (id, user_id, email) VALUES ($1, $2, $3)`, [
        deletionId,
        randomUUID(),
        `leaving-${randomUUID()}@example.com`,
      ]);
      await db.query(
        `INSERT INTO auth.account_deletion_parts (deletion_id, part, done_at, job_id)
         SELECT $1, part, CASE WHEN part = 'auth' THEN now() END, CASE WHEN part <> 'auth' THEN gen_random_uuid() END FROM unnest($2::text[]) AS part`,
        [deletionId, deletionParts],
      );
      return deletionId;
    };

    it("refuses the leads-service's report of another service's part, so the others still erase theirs", async () => {
      const deletionId = await confirmedDeletion();
      const leads = await busAs('leads');

      for (const part of ['progress', 'ditl', 'notifier', 'investor'] as const) {
        await expect(leads.request('auth.deletion-part-done', { deletionId, part })).rejects.toMatchObject({ code: 'FORBIDDEN' });
      }
      expect(await leads.request('auth.deletion-part-done', { deletionId, part: 'leads' })).toEqual({ completed: false });
      expect(await partsOf(deletionId)).toEqual([
        { part: 'auth', done: true },
        { part: 'ditl', done: false },
        { part: 'investor', done: false },
        { part: 'leads', done: true },
        { part: 'notifier', done: false },
        { part: 'progress', done: false },
      ]);
      expect(await leads.request('auth.deletion-subject', { deletionId })).toMatchObject({ email: expect.stringMatching(/^leaving-/) });
    });
  });
});
