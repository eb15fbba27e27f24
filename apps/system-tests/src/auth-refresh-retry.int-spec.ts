import { errorBodySchema, type Session, sessionSchema } from '@spark/contracts';
import { eventually, lockWaiters } from '@spark/testing';
import { Client } from 'pg';
import { authService } from '../../auth-service/src/service';
import { REFRESH_REUSE_GRACE_SECONDS } from '../../auth-service/src/tooling';
import { cookieValue, refreshCookieOf, signInTestFile } from './sign-in-client';

const JWT_SECRET = 'system-test-jwt-secret-refresh-retry';
const USED_TWICE = 'This session was ended because its refresh token was used twice. Please sign in again.';

/**
 * A refresh whose answer was lost (a replica killed after its commit, a connection reset, the page's deadline) is
 * retried by the browser with the cookie it still holds: the token the server has just spent.
 */
describe('a refresh retried with the cookie whose answer was lost', () => {
  const { db, stack, send, post, createUser, signIn } = signInTestFile(
    { services: [authService], env: { JWT_SECRET, PUBLIC_URL: 'http://spark.test' } },
    '198.18.9',
  );
  const refresh = (cookie: string) => post('/api/auth/refresh', {}, { cookie });
  const readSelf = (session: Session) => send('GET', '/api/auth/user', { accessToken: session.access_token });
  const signedIn = async (email: string) => {
    const id = await createUser(email);
    return { id, ...(await signIn(email)) };
  };
  /** The refresh tokens of the user that may still be spent. */
  const liveTokens = async (userId: string) =>
    Number(
      (await db().query(`SELECT count(*)::int AS n FROM auth.refresh_tokens WHERE user_id = $1 AND used_at IS NULL AND revoked_at IS NULL`, [userId])).rows[0]
        .n,
    );
  const renewed = async (answer: Response) => {
    expect(answer.status).toBe(200);
    return { session: sessionSchema.parse(await answer.json()), cookie: cookieValue(refreshCookieOf(answer)) };
  };
  const expectUsedTwice = async (answer: Response) => {
    expect(answer.status).toBe(401);
    expect(errorBodySchema.parse(await answer.json()).message).toBe(USED_TWICE);
    expect(refreshCookieOf(answer)).toMatch(/spark_refresh=;/);
  };

  it('answers the spent cookie, presented again at once, with the same successor, and the session renews on', async () => {
    const { id, cookie: first } = await signedIn('retried@example.com');
    const lost = await renewed(await refresh(first));

    const retried = await renewed(await refresh(first));
    expect(retried.cookie).toBe(lost.cookie);
    expect(retried.session.user.id).toBe(id);
    expect((await readSelf(retried.session)).status).toBe(200);
    expect(await liveTokens(id)).toBe(1);

    const next = await renewed(await refresh(retried.cookie));
    expect(next.cookie).not.toBe(retried.cookie);
    expect((await readSelf(next.session)).status).toBe(200);
    expect((await readSelf(lost.session)).status).toBe(200);
  });

  it('still ends the session when the spent cookie comes back after its successor was used', async () => {
    const { id, cookie: first } = await signedIn('moved-on@example.com');
    const second = await renewed(await refresh(first));
    const third = await renewed(await refresh(second.cookie));

    await expectUsedTwice(await refresh(first));
    expect(await liveTokens(id)).toBe(0);
    expect((await refresh(third.cookie)).status).toBe(401);
    expect((await readSelf(third.session)).status).toBe(401);
  });

  // The page waits 75 s for an answer before it gives up and retries, and retries a failed renewal every 30 s.
  it('keeps a person signed in whose lost answer the page retried minutes later, its successor unused', async () => {
    const { id, cookie: first } = await signedIn('slow-link@example.com');
    await renewed(await refresh(first));
    await db().query(`UPDATE auth.refresh_tokens SET used_at = used_at - interval '2 minutes' WHERE user_id = $1 AND used_at IS NOT NULL`, [id]);

    const retried = await renewed(await refresh(first));
    expect((await readSelf(retried.session)).status).toBe(200);
    expect(await liveTokens(id)).toBe(1);
  });

  it('still ends the session when the spent cookie comes back after the grace window', async () => {
    const { id, cookie: first } = await signedIn('too-late@example.com');
    const second = await renewed(await refresh(first));
    // The renewal happened just over the grace window ago.
    await db().query(`UPDATE auth.refresh_tokens SET used_at = used_at - make_interval(secs => $2) WHERE user_id = $1 AND used_at IS NOT NULL`, [
      id,
      REFRESH_REUSE_GRACE_SECONDS + 1,
    ]);

    await expectUsedTwice(await refresh(first));
    expect(await liveTokens(id)).toBe(0);
    expect((await refresh(second.cookie)).status).toBe(401);
    expect((await readSelf(second.session)).status).toBe(401);
  });

  it('answers concurrent refreshes with one cookie alike: one successor, one live token', async () => {
    const { id, cookie: first } = await signedIn('concurrent@example.com');
    const answers = await Promise.all(Array.from({ length: 4 }, () => refresh(first)));
    const cookies = new Set<string>();
    for (const answer of answers) cookies.add((await renewed(answer)).cookie);
    expect(cookies.size).toBe(1);
    expect(await liveTokens(id)).toBe(1);
    const [successor = ''] = cookies;
    await renewed(await refresh(successor));
  });

  // The auth-service commits the rotation, and its answer cannot leave (Redis refuses writes): the gateway answers 503.
  it('keeps a person signed in whose refresh was done but answered 503, when the browser retries', async () => {
    const { id, cookie: first } = await signedIn('lost-answer@example.com');
    const lock = new Client({ connectionString: stack().databaseUrl });
    await lock.connect();
    const redis = stack().redis;
    try {
      await lock.query('BEGIN');
      await lock.query('LOCK TABLE auth.handled_requests IN EXCLUSIVE MODE');
      const lost = refresh(first);
      await eventually(async () => (await lockWaiters(db(), 'INSERT INTO "auth".handled_requests')) === 1, 30_000, 'the refresh to wait before recording');
      await redis.call('CLIENT', 'PAUSE', '60000', 'WRITE');
      await lock.query('COMMIT');
      await eventually(
        async () => Number((await db().query(`SELECT count(*)::int AS n FROM auth.refresh_tokens WHERE user_id = $1`, [id])).rows[0].n) === 2,
        30_000,
        'the rotation to commit',
      );
      expect((await lost).status).toBe(503);
    } finally {
      await redis.call('CLIENT', 'UNPAUSE');
      await lock.end();
    }

    const retried = await renewed(await refresh(first));
    expect((await readSelf(retried.session)).status).toBe(200);
    await renewed(await refresh(retried.cookie));
  });
});
