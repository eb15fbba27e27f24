import { developmentSigningKeys } from '@spark/config';
import { sessionSchema, type SigningApp, type UserRole } from '@spark/contracts';
import { createLogger } from '@spark/logging';
import { RedisStreamsClient, ServiceBus } from '@spark/messaging';
import { insertUser, type ReceivedMail } from '@spark/testing';
import { Client } from 'pg';
import { cooldownKeys } from '../../auth-service/src/tooling';
import { type InProcessStack, type InProcessStackOptions, startInProcessStack } from './in-process-stack';

export interface SignInEmail {
  mail: ReceivedMail;
  link: URL;
  /** The link's token, from the fragment (or the query of a link sent before it moved there). */
  token: string;
  code: string;
}

export const tokenOf = (link: URL) => new URLSearchParams(link.hash.slice(1)).get('token') ?? link.searchParams.get('token') ?? '';
/** The refresh cookie an answer sets: `__Host-spark_refresh` on an https site, `spark_refresh` on plain http. */
export const refreshCookieOf = (response: Response) => response.headers.getSetCookie().find((cookie) => /^(__Host-)?spark_refresh=/.test(cookie));
export const cookieValue = (setCookie: string | undefined) => setCookie?.split(';')[0] ?? '';

export interface SignInTestBed {
  stack: InProcessStack;
  db: Client;
}

/**
 * What sign-in tests do through the real gateway: users written into the auth schema, links
 * requested over HTTP and read from the SMTP sink. `bed` is read at each call (a test file starts
 * its stack in beforeAll); `ip` is the X-Forwarded-For each call sends.
 */
export function signInClient(bed: () => SignInTestBed, ip: () => string) {
  const send = (method: string, path: string, options: { body?: unknown; accessToken?: string; headers?: Record<string, string> } = {}) =>
    fetch(`${bed().stack.baseUrl}${path}`, {
      method,
      headers: {
        'x-forwarded-for': ip(),
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(options.accessToken ? { authorization: `Bearer ${options.accessToken}` } : {}),
        ...options.headers,
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) => send('POST', path, { body, headers });
  const get = (path: string, accessToken?: string) => send('GET', path, { accessToken });

  const createUser = (email: string, role: UserRole = 'client') => insertUser(bed().db, { email, role });

  const mailsTo = (email: string) => bed().stack.smtp.messages.filter((mail) => mail.to.includes(email));
  const signInMailsTo = (email: string) => mailsTo(email).filter((mail) => mail.text.includes('Sign in: '));
  /** The `count`-th sign-in e-mail to `email`, once it arrived. */
  const waitForMail = async (email: string, count = 1): Promise<SignInEmail> => {
    for (let i = 0; signInMailsTo(email).length < count; i++) {
      if (i > 300) throw new Error(`no sign-in e-mail ${count} for ${email}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const mail = signInMailsTo(email)[count - 1];
    const link = /Sign in: (\S+)/.exec(mail?.text ?? '')?.[1];
    const code = /code on the sign-in page: (\d{6})/.exec(mail?.text ?? '')?.[1];
    if (!mail || !link || !code) throw new Error(`e-mail to ${email} has no link or code`);
    return { mail, link: new URL(link), token: tokenOf(new URL(link)), code };
  };

  const requestLink = async (email: string, headers: Record<string, string> = {}) => {
    const response = await post('/api/auth/magic-link', { email, product: 'spark' }, headers);
    if (response.status !== 202) throw new Error(`magic-link answered ${response.status}: ${await response.text()}`);
    return response;
  };

  /** Ends the address's wait for its next sign-in e-mail, so a test can ask for a fresh link at once. */
  const forgetCooldown = (email: string) => bed().stack.redis.del(cooldownKeys(bed().stack.env.BUS_PREFIX ?? '', email).slot);

  /** A fresh link and code for `email` (the `count`-th sign-in e-mail to it). */
  const freshSignInEmail = async (email: string, count: number) => {
    await forgetCooldown(email);
    await requestLink(email);
    return waitForMail(email, count);
  };

  const signIn = async (email: string) => {
    const { token } = await freshSignInEmail(email, signInMailsTo(email).length + 1);
    const response = await post('/api/auth/redeem', { token });
    if (response.status !== 200) throw new Error(`redeem answered ${response.status}: ${await response.text()}`);
    return { session: sessionSchema.parse(await response.json()), cookie: cookieValue(refreshCookieOf(response)) };
  };

  return { send, post, get, createUser, mailsTo, waitForMail, requestLink, forgetCooldown, freshSignInEmail, signIn };
}

/** A bus client on the stack's prefix, to call service patterns as `app` (the gateway unless named) sends them. */
export async function connectBus(env: NodeJS.ProcessEnv, app: SigningApp = 'gateway'): Promise<{ bus: ServiceBus; close: () => Promise<void> }> {
  const client = new RedisStreamsClient({
    app,
    signingKeys: developmentSigningKeys(),
    redisUrl: env.REDIS_URL ?? '',
    prefix: env.BUS_PREFIX ?? '',
    timeoutMs: 5000,
    logger: createLogger('system-test-bus', 'silent'),
  });
  await client.connect();
  return { bus: new ServiceBus(client), close: () => client.close() };
}

/**
 * The stack of one test file, started in beforeAll and stopped in afterAll, with a database client,
 * a bus client and the sign-in calls. Each test sends from its own client address (`ipPrefix`.n), so
 * the gateway's per-IP limits bite only where a test means them to.
 */
export function signInTestFile(options: InProcessStackOptions, ipPrefix: string) {
  let started: (SignInTestBed & { bus: ServiceBus; leadsBus: ServiceBus; closeBus: () => Promise<void> }) | undefined;
  const bed = () => {
    if (!started) throw new Error('the stack starts in beforeAll');
    return started;
  };
  beforeAll(async () => {
    // The test plays the trusted proxy: the x-forwarded-for it sends is each test's client address.
    const stack = await startInProcessStack({ ...options, env: { TRUST_PROXY: '127.0.0.1', ...options.env } });
    const db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
    const [gateway, leads] = await Promise.all([connectBus(stack.env), connectBus(stack.env, 'leads')]);
    started = { stack, db, bus: gateway.bus, leadsBus: leads.bus, closeBus: async () => void (await Promise.all([gateway.close(), leads.close()])) };
  });
  afterAll(async () => {
    await started?.closeBus();
    await started?.db.end();
    await started?.stack.stop();
  });
  let testIp = '';
  let tests = 0;
  beforeEach(() => {
    testIp = `${ipPrefix}.${++tests}`;
  });
  return {
    stack: () => bed().stack,
    db: () => bed().db,
    bus: () => bed().bus,
    /** As the leads-service sends: `auth.invite`, say. */
    leadsBus: () => bed().leadsBus,
    testIp: () => testIp,
    ...signInClient(bed, () => testIp),
  };
}
