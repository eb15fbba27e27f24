import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freshSigningKeys } from '@spark/config';
import { ditlStatusResponseSchema, type Lead, leadInviteBodyOf, QUEUE_BOARD_PATH, queueBoardTicketSchema, QUEUES } from '@spark/contracts';
import { bullPrefix } from '@spark/jobs';
import { serviceRoleOf } from '@spark/persistence';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { createTestDatabase, eventually, freePort, killAndWait, onboardingAnswers, type TestDatabase, testPostgresUrl } from '@spark/testing';
import { Client } from 'pg';
import { createSignedInUser, requestGeneration, TEST_JWT_SECRET } from './ditl-auth';
import { type InProcessStack, startInProcessStack } from './in-process-stack';

const root = join(__dirname, '..', '..', '..');
const APPS = ['gateway', 'auth', 'leads', 'progress', 'investor', 'ditl', 'content', 'notifier'];

/**
 * The whole product with least privilege, as deployed: against a Redis that knows only the users of
 * deploy/redis/users.acl (with this stack's prefix and fresh passwords), each app connected as its own user, and
 * against PostgreSQL as a login role per app that holds only its service's role (`spark_<schema>`, made by the
 * migrations, which the owner ran beforehand, as the migration Job does).
 */
describe('the product with one Redis ACL user (deploy/redis/users.acl) and one PostgreSQL role per app', () => {
  let redisServer: ChildProcess;
  let directory: string;
  let port: number;
  let stack: InProcessStack;
  let database: TestDatabase;
  let db: Client;
  const prefix = `acl-${randomBytes(4).toString('hex')}`;
  const signingKeys = freshSigningKeys();
  const passwords = Object.fromEntries([...APPS, 'keda', 'admin'].map((user) => [user, randomBytes(16).toString('hex')]));
  const urlAs = (user: string) => `redis://${user}:${passwords[user]}@127.0.0.1:${port}`;
  const connectAs = (user: string) => new Redis(urlAs(user), { maxRetriesPerRequest: 1, lazyConnect: true });
  // Roles belong to the whole server: this run's login roles carry its prefix. The gateway's holds no grant at all.
  const databaseLogin = (app: string) => `${prefix.replace('-', '_')}_${app}`;
  const databaseUrlAs = (app: string) => {
    const url = new URL(database.url);
    url.username = databaseLogin(app);
    url.password = '';
    return url.toString();
  };

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'spark-acl-'));
    const example = await readFile(join(root, 'deploy/redis/users.acl'), 'utf8');
    const acl = example
      .replaceAll('spark:', `${prefix}:`)
      .replace(/>CHANGE_ME_([A-Z]+)/g, (_, user: string) => `>${passwords[user.toLowerCase()]}`)
      // The test's own user, to look at keys and clean up.
      .concat(`\nuser admin on >${passwords.admin} ~* &* +@all\n`);
    await writeFile(join(directory, 'users.acl'), acl);
    port = await freePort();
    redisServer = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--dir', directory, '--aclfile', join(directory, 'users.acl')],
      { stdio: 'ignore' },
    );
    await eventually(
      async () => {
        const admin = connectAs('admin');
        try {
          await admin.connect();
          return (await admin.ping()) === 'PONG';
        } catch {
          return false; // still starting
        } finally {
          admin.disconnect();
        }
      },
      15_000,
      'the private Redis to answer',
    );
    database = await createTestDatabase();
    // `npm run migrate` as the owner, as the migration Job runs it before any app starts.
    await promisify(execFile)(process.execPath, ['-r', '@swc-node/register', join(root, 'scripts/migrate.ts')], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: database.url },
    });
    db = new Client({ connectionString: database.url });
    await db.connect();
    for (const app of APPS) await db.query(`CREATE ROLE "${databaseLogin(app)}" LOGIN ${app === 'gateway' ? '' : `IN ROLE "${serviceRoleOf(app)}"`}`);
    stack = await startInProcessStack({
      env: { JWT_SECRET: TEST_JWT_SECRET, BUS_PREFIX: prefix },
      redis: { adminUrl: urlAs('admin'), urlOf: urlAs },
      databaseUrl: database.url,
      databaseUrlOf: databaseUrlAs,
      // Each app holds only the keys of the jobs it queues or runs, as `npm run signing-keys` hands them out.
      envOf: (app) => ({ SIGNING_KEYS: signingKeys.find((keys) => keys.app === app)?.value ?? '' }),
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await db?.end();
    await database?.drop();
    // Only once their database is gone do the login roles own nothing that would keep them.
    const server = new Client({ connectionString: await testPostgresUrl() });
    await server.connect();
    for (const app of APPS) await server.query(`DROP ROLE IF EXISTS "${databaseLogin(app)}"`);
    await server.end();
    await killAndWait([redisServer]);
    await rm(directory, { recursive: true, force: true });
  });

  const call = (method: string, path: string, body?: unknown, token?: string) =>
    fetch(`${stack.baseUrl}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const mailTo = (address: string, subject: RegExp) =>
    eventually(() => stack.smtp.messages.find((mail) => mail.to.includes(address) && subject.test(mail.subject)), 15_000, `an e-mail to ${address}`);

  it('takes a lead, e-mails it, and lets a coach approve it (gateway, leads, auth through leads, notifier)', async () => {
    const lead = await call('POST', '/api/leads', { email: 'acl-lead@example.com', role: 'client' });
    expect(lead.status).toBe(201);
    await mailTo('acl-lead@example.com', /We received your interest/);

    const coach = await createSignedInUser(db, 'acl-coach@example.com', 'coach');
    const { lead: created } = (await lead.json()) as { lead: Lead };
    expect((await call('POST', `/api/coach/leads/${created.id}/approve`, leadInviteBodyOf(created), coach.token)).status).toBe(200);
    await mailTo('acl-lead@example.com', /approved/i);
  });

  it("signs in by e-mail, and serves progress, investors and the Developer's Log", async () => {
    await createSignedInUser(db, 'acl-client@example.com');
    expect((await call('POST', '/api/auth/magic-link', { email: 'acl-client@example.com' })).status).toBe(202);
    await mailTo('acl-client@example.com', /sign-in link/);

    const client = await createSignedInUser(db, 'acl-reader@example.com');
    expect((await call('GET', '/api/progress/me', undefined, client.token)).status).toBe(200);
    expect((await call('POST', '/api/investors/early-access', { email: 'acl-investor@example.com' })).status).toBe(202);
    expect((await call('GET', '/api/log/posts')).status).toBe(200);
  });

  it('generates a DITL on the worker and e-mails it (ditl queue and mail queue)', async () => {
    const client = await createSignedInUser(db, 'acl-ditl@example.com');
    const generationId = await requestGeneration(stack.baseUrl, client.token, onboardingAnswers());

    await eventually(
      async () => {
        const status = ditlStatusResponseSchema.parse(await (await call('GET', `/api/ditl/generations/${generationId}`, undefined, client.token)).json());
        return status.status === 'completed' ? status : undefined;
      },
      15_000,
      'the generation to complete',
    );
    await mailTo('acl-ditl@example.com', /Day in the Life/i);
  });

  it('builds a data export on the progress worker, asking auth and ditl over the bus, and e-mails its link (export and mail queues)', async () => {
    const client = await createSignedInUser(db, 'acl-export@example.com');
    expect((await call('POST', '/api/progress/me/export', undefined, client.token)).status).toBe(202);
    await mailTo('acl-export@example.com', /Your Spark data is ready/);
  });

  it('deletes an account, each part erased from its own queue and reported to auth over the bus (account-deletion queues)', async () => {
    const client = await createSignedInUser(db, 'acl-delete@example.com');
    expect((await call('POST', '/api/me/account-deletion', undefined, client.token)).status).toBe(202);
    const mail = await mailTo('acl-delete@example.com', /Confirm deleting your Spark account/);
    const token = /#token=([\w-]+)/.exec(mail?.text ?? '')?.[1];
    expect((await call('POST', '/api/account-deletion/confirm', { token })).status).toBe(200);
    await eventually(
      async () => ((await db.query(`SELECT 1 FROM auth.account_deletions WHERE completed_at IS NOT NULL`)).rowCount === 1 ? true : undefined),
      20_000,
      'the deletion to complete',
    );
    // The auth-service's sweep of open parts runs under its user too: scheduled, and its first run done at start.
    const sweep = new Queue(QUEUES.deletionPartsSweep, { connection: stack.redis, prefix: bullPrefix(prefix) });
    try {
      expect(await sweep.getJobScheduler('open-deletion-parts-sweep')).toBeDefined();
      expect(await sweep.getJobCounts('completed', 'failed')).toEqual({ completed: 1, failed: 0 });
    } finally {
      await sweep.close();
    }
  });

  it("serves the admins' queue dashboard, which reads every queue as the gateway user", async () => {
    const admin = await createSignedInUser(db, 'acl-admin@example.com', 'admin');
    const ticket = queueBoardTicketSchema.parse(await (await call('POST', '/api/admin/queue-board/tickets', undefined, admin.token)).json());
    const opened = await fetch(`${stack.baseUrl}${ticket.url}`, { redirect: 'manual' });
    const cookie = opened.headers.getSetCookie()[0]?.split(';')[0] ?? '';
    const listed = await fetch(`${stack.baseUrl}${QUEUE_BOARD_PATH}/api/queues?activeQueue=mail&status=failed&page=1`, { headers: { cookie } });
    expect(listed.status).toBe(200);
    const { queues } = (await listed.json()) as { queues: { name: string }[] };
    expect(queues.map((queue) => queue.name).sort()).toEqual([...Object.values(QUEUES)].sort());
  });

  it.each([
    ['notifier', (redis: Redis) => redis.xadd(`${prefix}:svc:ditl`, '*', 'p', 'ditl.generate', 'd', '{}')],
    ['notifier', (redis: Redis) => redis.xadd(`${prefix}:svc:leads`, '*', 'p', 'leads.create', 'd', '{}')],
    ['notifier', (redis: Redis) => redis.xrange(`${prefix}:svc:auth`, '-', '+')],
    ['leads', (redis: Redis) => redis.xadd(`${prefix}:svc:investor`, '*', 'p', 'investor.create', 'd', '{}')],
    ['gateway', (redis: Redis) => redis.xrange(`${prefix}:svc:auth`, '-', '+')],
    ['gateway', (redis: Redis) => redis.get(`${prefix}:auth:mail-cooldown:x`)],
    // Where the gateway's answers arrive, the auth-service's sessions among them: only the gateway reads them.
    ['auth', (redis: Redis) => redis.lrange(`${prefix}:reply:gateway:0f0e0d0c-0b0a-4009-8807-060504030201`, 0, -1)],
    ['leads', (redis: Redis) => redis.lrange(`${prefix}:reply:gateway:0f0e0d0c-0b0a-4009-8807-060504030201`, 0, -1)],
    ['notifier', (redis: Redis) => redis.lpop(`${prefix}:reply:gateway:0f0e0d0c-0b0a-4009-8807-060504030201`)],
    ['progress', (redis: Redis) => redis.lpop(`${prefix}:reply:leads:0f0e0d0c-0b0a-4009-8807-060504030201`)],
    ['ditl', (redis: Redis) => redis.flushall()],
    ['content', (redis: Redis) => redis.keys('*')],
    // Key names tell whose keys exist (user ids, the addresses rate limits count): no user lists them.
    ['leads', (redis: Redis) => redis.scan('0')],
    ['gateway', (redis: Redis) => redis.scan('0', 'MATCH', `${prefix}:*`)],
    ['notifier', (redis: Redis) => redis.randomkey()],
    ['keda', (redis: Redis) => redis.lrange(`${prefix}:bull:ditl:wait`, 0, -1)],
  ])('refuses the %s user a command outside its keys', async (user, command) => {
    const redis = connectAs(user);
    try {
      await redis.connect();
      await expect(command(redis)).rejects.toThrow(/NOPERM/);
    } finally {
      redis.disconnect();
    }
  });

  it("lets the notifier write to auth's and progress's streams: account erasure asks auth, a dropped push subscription tells progress", async () => {
    const notifier = connectAs('notifier');
    try {
      await notifier.connect();
      // Entries without a request id: each service refuses them and runs nothing, so they only probe the grant.
      for (const service of ['auth', 'progress']) {
        await expect(notifier.xadd(`${prefix}:svc:${service}`, '*', 'p', `${service}.probe`, 'd', '{}')).resolves.toMatch(/^\d+-\d+$/);
      }
    } finally {
      notifier.disconnect();
    }
  });

  it('connects each app to PostgreSQL as its own login role, never as the owner', async () => {
    const { rows } = await db.query<{ usename: string }>(
      `SELECT DISTINCT usename FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
    );
    const databaseApps = APPS.filter((app) => app !== 'gateway');
    expect(rows.map(({ usename }) => usename).sort()).toEqual(databaseApps.map(databaseLogin).sort());
  });

  it.each([
    ['leads', 'SELECT count(*) FROM auth.users'],
    ['progress', 'UPDATE leads.leads SET email = email'],
    ['notifier', 'SELECT count(*) FROM progress.sparks'],
    ['gateway', 'SELECT count(*) FROM auth.refresh_tokens'],
    ['investor', 'INSERT INTO auth.audit_events (action) VALUES ($$x$$)'],
    // The audit log: the auth-service adds to it and relabels it for a deletion, but neither deletes nor disarms it.
    ['auth', 'DELETE FROM auth.audit_events'],
    ['auth', 'TRUNCATE auth.audit_events'],
    ['auth', 'ALTER TABLE auth.audit_events DISABLE TRIGGER audit_events_append_only'],
    ['auth', 'DROP TRIGGER audit_events_append_only ON auth.audit_events'],
    ['auth', 'SET session_replication_role = replica'],
    ['ditl', 'CREATE TABLE ditl.planted (id int)'],
    ['content', 'DROP TABLE content.posts'],
  ])('refuses the %s role `%s`', async (app, sql) => {
    const client = new Client({ connectionString: databaseUrlAs(app) });
    await client.connect();
    try {
      await expect(client.query(sql)).rejects.toThrow(/permission denied|must be owner/);
    } finally {
      await client.end();
    }
  });

  it("lets KEDA's scaler read the length of the DITL queue", async () => {
    const keda = connectAs('keda');
    try {
      await keda.connect();
      await expect(keda.llen(`${prefix}:bull:ditl:wait`)).resolves.toBe(0);
    } finally {
      keda.disconnect();
    }
  });
});
