import { randomBytes } from 'node:crypto';
import { JwtService } from '@nestjs/jwt';
import {
  ACCESS_TOKEN_AUDIENCE,
  ACCESS_TOKEN_ISSUER,
  authUserSchema,
  errorBodySchema,
  REFRESH_COOKIE_NAME,
  type Session,
  sessionSchema,
  type UserRole,
} from '@spark/contracts';
import { authService } from '../../auth-service/src/service';
import { SESSION_RENEWALS } from '../../auth-service/src/tooling';
import { leadsService } from '../../leads-service/src/service';
import { approvedInvite } from './invite-approval';
import { cookieValue, refreshCookieOf, signInTestFile } from './sign-in-client';

const JWT_SECRET = 'system-test-jwt-secret-sessions-01';

describe('sessions end when they should, and roles change only explicitly', () => {
  // No AUTH_DEVELOPMENT_MODE: a non-production stack as a test or CI runs it.
  const { db, leadsBus, send, post, createUser, signIn } = signInTestFile(
    { services: [authService, leadsService], env: { JWT_SECRET, PUBLIC_URL: 'http://spark.test' } },
    '198.18.0',
  );
  const renameSelf = (session: Session, fullName: string) =>
    send('PATCH', '/api/auth/user', { accessToken: session.access_token, body: { full_name: fullName } });
  const readSelf = (session: Session) => send('GET', '/api/auth/user', { accessToken: session.access_token });
  const changeRole = (session: Session, userId: string, role: unknown) =>
    send('PATCH', `/api/admin/users/${userId}/role`, { accessToken: session.access_token, body: { role } });
  const signedIn = async (email: string, role: UserRole) => {
    const id = await createUser(email, role);
    return { id, ...(await signIn(email)) };
  };
  const roleOf = async (userId: string) => (await db().query(`SELECT role FROM auth.users WHERE id = $1`, [userId])).rows[0]?.role as UserRole;

  it('ends a session 30 days after its sign-in, however often it was refreshed', async () => {
    const { id, cookie } = await signedIn('thirty-days@example.com', 'client');
    // The sign-in happened 29 days and 23 hours ago.
    await db().query(
      `UPDATE auth.refresh_tokens SET created_at = created_at - interval '29 days 23 hours', expires_at = expires_at - interval '29 days 23 hours' WHERE user_id = $1`,
      [id],
    );
    const refreshed = await post('/api/auth/refresh', {}, { cookie });
    expect(refreshed.status).toBe(200);
    const { rows } = await db().query(`SELECT expires_at FROM auth.refresh_tokens WHERE user_id = $1 ORDER BY created_at`, [id]);
    expect(rows).toHaveLength(2);
    expect(rows[1].expires_at).toEqual(rows[0].expires_at);

    // An hour later the family is over, although its newest token is a minute old.
    await db().query(`UPDATE auth.refresh_tokens SET expires_at = expires_at - interval '1 hour' WHERE user_id = $1`, [id]);
    expect((await post('/api/auth/refresh', {}, { cookie: cookieValue(refreshCookieOf(refreshed)) })).status).toBe(401);
  });

  // Each renewal writes a row its family keeps for reuse detection: unbounded, one session could fill the database.
  // Counting every renewal from an address would let the people of one office, or a script among them, use it up.
  it('counts only the renewals from an address that fail: real sessions renew on, made-up cookies stop at 100', async () => {
    for (const email of ['office-one@example.com', 'office-two@example.com']) {
      let { cookie } = await signedIn(email, 'client');
      for (let renewal = 1; renewal <= SESSION_RENEWALS.max; renewal++) {
        const renewed = await post('/api/auth/refresh', {}, { cookie });
        expect(renewed.status).toBe(200);
        cookie = cookieValue(refreshCookieOf(renewed));
      }
    }
    const madeUp = () => post('/api/auth/refresh', {}, { cookie: `${REFRESH_COOKIE_NAME}=${randomBytes(32).toString('base64url')}` });
    for (let attempt = 1; attempt <= 100; attempt++) expect((await madeUp()).status).toBe(401);
    const refused = await madeUp();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('renews one session at most 60 times in 10 minutes, then answers 429 keeping the cookie and writing nothing', async () => {
    const { id, cookie } = await signedIn('renews-often@example.com', 'client');
    const tokensOf = async (userId: string) =>
      (await db().query(`SELECT count(*)::int AS n FROM auth.refresh_tokens WHERE user_id = $1`, [userId])).rows[0]?.n as number;
    let current = cookie;
    for (let renewal = 1; renewal <= SESSION_RENEWALS.max; renewal++) {
      const renewed = await post('/api/auth/refresh', {}, { cookie: current });
      expect(renewed.status).toBe(200);
      current = cookieValue(refreshCookieOf(renewed));
    }
    const written = await tokensOf(id);

    const refused = await post('/api/auth/refresh', {}, { cookie: current });
    expect(refused.status).toBe(429);
    expect(errorBodySchema.parse(await refused.json()).message).toMatch(/^This session was renewed too often\. Please try again in \d+ (minutes?|seconds?)\.$/);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(SESSION_RENEWALS.windowSeconds);
    expect(refreshCookieOf(refused)).toBeUndefined();
    expect(await tokensOf(id)).toBe(written);

    // The same person's other session has a budget of its own.
    expect((await post('/api/auth/refresh', {}, { cookie: (await signIn('renews-often@example.com')).cookie })).status).toBe(200);
    // Once the window has passed, the kept cookie renews again.
    await db().query(`UPDATE auth.refresh_tokens SET renewal_window_started_at = renewal_window_started_at - interval '10 minutes' WHERE user_id = $1`, [id]);
    expect((await post('/api/auth/refresh', {}, { cookie: current })).status).toBe(200);
  });

  it('refuses a signed-out session’s access token on every route, reads included, at once', async () => {
    const { session, cookie } = await signedIn('signed-out@example.com', 'client');
    const other = await signIn('signed-out@example.com');
    expect((await renameSelf(session, 'Before Sign-out')).status).toBe(200);
    expect((await readSelf(session)).status).toBe(200);
    expect((await post('/api/auth/sign-out', {}, { cookie })).status).toBe(204);

    for (const refused of [await renameSelf(session, 'After Sign-out'), await readSelf(session)]) {
      expect(refused.status).toBe(401);
      expect(errorBodySchema.parse(await refused.json())).toMatchObject({
        code: 'UNAUTHENTICATED',
        message: 'You signed out of this session. Please sign in again.',
      });
    }
    // The same person's other session is untouched.
    expect((await renameSelf(other.session, 'Other Session')).status).toBe(200);
    expect((await readSelf(other.session)).status).toBe(200);
  });

  it('signs a person out on every device at once, and a sign-in after it works', async () => {
    const phone = await signedIn('every-device@example.com', 'coach');
    const laptop = await signIn('every-device@example.com');
    const someoneElse = await signedIn('not-me@example.com', 'coach');
    expect((await post('/api/auth/sign-out-everywhere', {})).status).toBe(401);

    const ended = await send('POST', '/api/auth/sign-out-everywhere', { accessToken: laptop.session.access_token });
    expect(ended.status).toBe(204);
    expect(ended.headers.get('set-cookie')).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/);

    for (const session of [phone.session, laptop.session]) {
      const refused = await readSelf(session);
      expect(refused.status).toBe(401);
      expect(errorBodySchema.parse(await refused.json()).message).toBe('You signed out on every device. Please sign in again.');
    }
    for (const cookie of [phone.cookie, laptop.cookie]) expect((await post('/api/auth/refresh', {}, { cookie })).status).toBe(401);
    expect((await readSelf(someoneElse.session)).status).toBe(200);
    expect((await post('/api/auth/refresh', {}, { cookie: someoneElse.cookie })).status).toBe(200);
    const again = await signIn('every-device@example.com');
    expect((await readSelf(again.session)).status).toBe(200);
  });

  it('lets an admin change a role, which ends every session of that user at once', async () => {
    const admin = await signedIn('role-admin@example.com', 'admin');
    const member = await signedIn('role-member@example.com', 'coach');
    expect((await readSelf(member.session)).status).toBe(200);
    const secondDevice = await signIn('role-member@example.com');
    // A token signed before access tokens carried a session id: its user's marker voids it.
    const withoutSessionId = new JwtService({ secret: JWT_SECRET }).sign(
      { sub: member.id, email: 'role-member@example.com', role: 'coach', iat: Math.floor(Date.now() / 1000) - 5 },
      { expiresIn: 900, issuer: ACCESS_TOKEN_ISSUER, audience: ACCESS_TOKEN_AUDIENCE },
    );
    expect((await send('PATCH', '/api/auth/user', { accessToken: withoutSessionId, body: { full_name: 'Legacy' } })).status).toBe(200);

    const changed = await changeRole(admin.session, member.id, 'client');
    expect(changed.status).toBe(200);
    expect(authUserSchema.parse(await changed.json()).user_metadata.role).toBe('client');
    expect(await roleOf(member.id)).toBe('client');

    // A coach no longer: not even a read with the coach's token.
    for (const refused of [await renameSelf(member.session, 'Old Role'), await readSelf(member.session)]) {
      expect(refused.status).toBe(401);
      expect(errorBodySchema.parse(await refused.json()).message).toBe('Your role changed. Please sign in again.');
    }
    expect((await send('PATCH', '/api/auth/user', { accessToken: withoutSessionId, body: { full_name: 'Legacy' } })).status).toBe(401);
    for (const cookie of [member.cookie, secondDevice.cookie]) expect((await post('/api/auth/refresh', {}, { cookie })).status).toBe(401);
    const again = await signIn('role-member@example.com');
    expect(again.session.user.user_metadata.role).toBe('client');
    expect((await renameSelf(again.session, 'New Role')).status).toBe(200);
    // The admin's own session is untouched.
    expect((await renameSelf(admin.session, 'Role Admin')).status).toBe(200);
  });

  it('answers a coach or client 403, bad input 400 and an unknown user 404, changing nothing', async () => {
    const admin = await signedIn('checks-admin@example.com', 'admin');
    const coach = await signedIn('checks-coach@example.com', 'coach');
    const client = await signedIn('checks-client@example.com', 'client');
    for (const caller of [coach, client]) expect((await changeRole(caller.session, client.id, 'admin')).status).toBe(403);

    const badRole = await changeRole(admin.session, client.id, 'owner');
    expect(badRole.status).toBe(400);
    expect(errorBodySchema.parse(await badRole.json()).fieldErrors).toHaveProperty('role');
    expect(
      (await send('PATCH', `/api/admin/users/${client.id}/role`, { accessToken: admin.session.access_token, body: { role: 'coach', extra: 1 } })).status,
    ).toBe(400);
    expect((await changeRole(admin.session, 'not-a-uuid', 'coach')).status).toBe(400);
    const unknown = await changeRole(admin.session, '00000000-0000-4000-8000-000000000000', 'coach');
    expect(unknown.status).toBe(404);
    expect(await roleOf(client.id)).toBe('client');
  });

  it('keeps one admin: the last cannot step down (409), and two admins demoting each other at once leave one', async () => {
    await db().query(`UPDATE auth.users SET role = 'coach' WHERE role = 'admin'`);
    const first = await signedIn('last-admin-1@example.com', 'admin');
    const second = await signedIn('last-admin-2@example.com', 'admin');
    expect((await changeRole(first.session, second.id, 'coach')).status).toBe(200);
    const stepDown = await changeRole(first.session, first.id, 'client');
    expect(stepDown.status).toBe(409);
    expect(errorBodySchema.parse(await stepDown.json()).message).toBe('You are the last admin. Make someone else an admin before you change your own role.');

    const third = await signedIn('last-admin-3@example.com', 'admin');
    const answers = await Promise.all([changeRole(first.session, third.id, 'coach'), changeRole(third.session, first.id, 'coach')]);
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect([await roleOf(first.id), await roleOf(third.id)].filter((role) => role === 'admin')).toHaveLength(1);
  });

  it('never raises an existing account’s role through an invite: one of another role is refused', async () => {
    const clientId = await createUser('invited-client@example.com', 'client');
    const invited = leadsBus().request('auth.invite', approvedInvite({ email: 'invited-client@example.com', role: 'coach', next: 'ditl-welcome' }));
    await expect(invited).rejects.toMatchObject({ code: 'ACCOUNT_ROLE_DIFFERS' });
    expect(await roleOf(clientId)).toBe('client');
  });

  it('hands no sign-in link back to a coach without AUTH_DEVELOPMENT_MODE, least of all for an admin’s address', async () => {
    await createUser('taken-over-admin@example.com', 'admin');
    const coach = await signedIn('lead-adding-coach@example.com', 'coach');
    const added = await send('POST', '/api/coach/leads', { accessToken: coach.session.access_token, body: { email: 'taken-over-admin@example.com' } });
    const answer = (await added.json()) as Record<string, unknown>;
    expect({ status: added.status, code: answer.code, magicLink: answer.magicLink }).toEqual({
      status: 409,
      code: 'ACCOUNT_ROLE_DIFFERS',
      magicLink: undefined,
    });
  });

  it('puts the session id in the access token', async () => {
    const { id, session } = await signedIn('sid-claim@example.com', 'client');
    const claims = JSON.parse(Buffer.from(session.access_token.split('.')[1] ?? '', 'base64url').toString()) as { sid?: string };
    const { rows } = await db().query(`SELECT DISTINCT family_id FROM auth.refresh_tokens WHERE user_id = $1`, [id]);
    expect(claims.sid).toBe(rows[0]?.family_id);
    expect(sessionSchema.parse(session).user.id).toBe(id);
  });
});
