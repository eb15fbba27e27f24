import { randomUUID } from 'node:crypto';
import { JwtService } from '@nestjs/jwt';
import {
  ACCESS_TOKEN_AUDIENCE,
  ACCESS_TOKEN_ISSUER,
  authUserSchema,
  errorBodySchema,
  linkInfoResponseSchema,
  magicLinkResponseSchema,
  sessionSchema,
  userPageSchema,
} from '@spark/contracts';
import { approvedInvite } from './invite-approval';
import { cookieValue, refreshCookieOf, signInTestFile, tokenOf } from './sign-in-client';
import { untilIdle } from './until-idle';

const JWT_SECRET = 'system-test-jwt-secret-0123456789';
const PUBLIC_URL = 'http://spark.test';

describe('passwordless sign-in through the gateway', () => {
  // Each test signs in from its own address, so the per-IP limit only bites where it is tested.
  const {
    stack,
    db,
    leadsBus,
    testIp,
    send,
    post,
    get,
    createUser,
    mailsTo,
    waitForMail,
    requestLink: requestLinkWith,
    forgetCooldown,
    signIn,
  } = signInTestFile({ redisDb: 8, env: { JWT_SECRET, PUBLIC_URL, AUTH_DEVELOPMENT_MODE: 'true' } }, '198.51.100');
  const requestLink = (email: string, ip = testIp()) => requestLinkWith(email, { 'x-forwarded-for': ip });

  it('signs in once with the e-mailed link, and refuses the same link a second time', async () => {
    const userId = await createUser('once@example.com');
    await requestLink('  Once@Example.com ');
    const { link, mail } = await waitForMail('once@example.com');
    expect(mail.subject).toBe('Your sign-in link for The Spark');
    expect(`${link.origin}${link.pathname}`).toBe(`${PUBLIC_URL}/magic-link-auth`);
    expect(tokenOf(link)).toMatch(/^[\w-]{43}$/);
    // In the fragment, which browsers never send to a server or put in a Referer.
    expect(link.hash).toBe(`#token=${tokenOf(link)}`);
    expect(link.search).toBe('');
    const { rows } = await db().query(`SELECT token_hash FROM auth.magic_links WHERE user_id = $1`, [userId]);
    expect(rows[0].token_hash.toString('base64url')).not.toBe(tokenOf(link));

    const first = await post('/api/auth/redeem', { token: tokenOf(link) });
    expect(first.status).toBe(200);
    const session = sessionSchema.parse(await first.json());
    expect(session).toMatchObject({ token_type: 'bearer', expires_in: 900, user: { id: userId, email: 'once@example.com' } });
    expect(session.user.user_metadata.role).toBe('client');
    const cookie = refreshCookieOf(first) ?? '';
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\/api\/auth/);
    expect(cookie).not.toMatch(/Secure/);

    const me = await get('/api/auth/user', session.access_token);
    expect(me.status).toBe(200);
    expect(authUserSchema.parse(await me.json()).id).toBe(userId);

    const second = await post('/api/auth/redeem', { token: tokenOf(link) });
    expect(second.status).toBe(401);
    expect(errorBodySchema.parse(await second.json()).code).toBe('UNAUTHENTICATED');
  });

  it('gives exactly one session to 20 simultaneous redemptions of one link', async () => {
    await createUser('race@example.com');
    await requestLink('race@example.com');
    const { link } = await waitForMail('race@example.com');
    const answers = await Promise.all(Array.from({ length: 20 }, () => post('/api/auth/redeem', { token: tokenOf(link) })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, ...Array<number>(19).fill(401)]);
    const { rows } = await db().query(
      `SELECT count(*)::int AS families FROM auth.refresh_tokens t JOIN auth.users u ON u.id = t.user_id WHERE u.email = 'race@example.com'`,
    );
    expect(rows[0].families).toBe(1);
  });

  it('tells whose a link is without spending it, and nothing about a link that does not work', async () => {
    await createUser('whose@example.com');
    await requestLink('whose@example.com');
    const { token } = await waitForMail('whose@example.com');
    for (let look = 0; look < 2; look++) {
      const info = await post('/api/auth/link-info', { token });
      expect(info.status).toBe(200);
      expect(linkInfoResponseSchema.parse(await info.json())).toEqual({ email: 'whose@example.com' });
    }
    const unknown = await post('/api/auth/link-info', { token: 'x'.repeat(43) });
    expect(unknown.status).toBe(401);
    const { code, message } = errorBodySchema.parse(await unknown.json());
    expect((await post('/api/auth/redeem', { token })).status).toBe(200);
    const spent = await post('/api/auth/link-info', { token });
    expect(spent.status).toBe(401);
    expect(errorBodySchema.parse(await spent.json())).toMatchObject({ code, message });
    expect((await post('/api/auth/link-info', { email: 'whose@example.com' })).status).toBe(400);
  });

  it('limits link look-ups per IP address like redemptions, with 429', async () => {
    for (let i = 0; i < 30; i++) expect((await post('/api/auth/link-info', { token: `unknown-token-${i}-${'x'.repeat(30)}` })).status).toBe(401);
    const over = await post('/api/auth/link-info', { token: 'x'.repeat(43) });
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('refuses an expired link', async () => {
    await createUser('expired@example.com');
    await requestLink('expired@example.com');
    const { link } = await waitForMail('expired@example.com');
    await db().query(`UPDATE auth.magic_links SET expires_at = now() - interval '1 second' WHERE email = 'expired@example.com'`);
    expect((await post('/api/auth/redeem', { token: tokenOf(link) })).status).toBe(401);
  });

  it('voids the older unused link when a new one is issued', async () => {
    await createUser('newer@example.com');
    await requestLink('newer@example.com');
    const older = await waitForMail('newer@example.com');
    await forgetCooldown('newer@example.com');
    await requestLink('newer@example.com');
    const newer = await waitForMail('newer@example.com', 2);
    expect((await post('/api/auth/redeem', { token: tokenOf(older.link) })).status).toBe(401);
    expect((await post('/api/auth/redeem', { token: tokenOf(newer.link) })).status).toBe(200);
  });

  it('answers an unknown e-mail exactly as a known one, and sends it nothing', async () => {
    await createUser('known@example.com');
    const known = await requestLink('known@example.com');
    const unknown = await requestLink('nobody-here@example.com');
    expect(magicLinkResponseSchema.parse(await unknown.json())).toEqual(magicLinkResponseSchema.parse(await known.json()));
    await waitForMail('known@example.com');
    await untilIdle(stack());
    expect(mailsTo('nobody-here@example.com')).toHaveLength(0);
    const { rows } = await db().query(`SELECT count(*)::int AS jobs FROM auth.outbox WHERE payload->>'email' = 'nobody-here@example.com'`);
    expect(rows[0].jobs).toBe(0);
  });

  it('sends one e-mail per address per minute, answering 429 with Retry-After', async () => {
    await createUser('eager@example.com');
    await requestLink('eager@example.com');
    const again = await post('/api/auth/magic-link', { email: 'eager@example.com', product: 'spark' });
    expect(again.status).toBe(429);
    const retryAfter = Number(again.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(50);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(errorBodySchema.parse(await again.json())).toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: retryAfter });
    await waitForMail('eager@example.com');
    expect(mailsTo('eager@example.com')).toHaveLength(1);
  });

  it('limits magic-link requests per IP address with 429', async () => {
    const ip = '203.0.113.77';
    for (let i = 0; i < 20; i++) await requestLink(`ip-${i}@example.com`, ip);
    const over = await post('/api/auth/magic-link', { email: 'ip-20@example.com' }, { 'x-forwarded-for': ip });
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await post('/api/auth/magic-link', { email: 'ip-21@example.com' }, { 'x-forwarded-for': '203.0.113.78' })).status).toBe(202);
  });

  it('signs in with the 6-digit code from the e-mail, once', async () => {
    await createUser('code@example.com');
    await requestLink('code@example.com');
    const { code } = await waitForMail('code@example.com');
    const response = await post('/api/auth/redeem', { email: 'CODE@example.com', code });
    expect(response.status).toBe(200);
    expect(sessionSchema.parse(await response.json()).user.email).toBe('code@example.com');
    expect((await post('/api/auth/redeem', { email: 'code@example.com', code })).status).toBe(401);
  });

  it('voids the code after 5 wrong tries, even the right code after them', async () => {
    await createUser('guess@example.com');
    await requestLink('guess@example.com');
    const { code } = await waitForMail('guess@example.com');
    const wrong = code === '000000' ? '111111' : '000000';
    const guesses = await Promise.all(Array.from({ length: 8 }, () => post('/api/auth/redeem', { email: 'guess@example.com', code: wrong })));
    expect(guesses.every((guess) => guess.status === 401)).toBe(true);
    const { rows } = await db().query(`SELECT code_attempts FROM auth.magic_links WHERE email = 'guess@example.com'`);
    expect(rows[0].code_attempts).toBe(5);
    expect((await post('/api/auth/redeem', { email: 'guess@example.com', code })).status).toBe(401);
  });

  it('rotates the refresh cookie, and revokes the whole family when a spent one comes back', async () => {
    await createUser('rotate@example.com');
    const { cookie: first } = await signIn('rotate@example.com');
    const rotated = await post('/api/auth/refresh', {}, { cookie: first });
    expect(rotated.status).toBe(200);
    expect(sessionSchema.parse(await rotated.json()).user.email).toBe('rotate@example.com');
    const second = cookieValue(refreshCookieOf(rotated));
    expect(second).not.toBe(first);
    // The holder renews on; only then is the spent token surely a copy, not a retry (auth-refresh-retry.int-spec.ts).
    const third = cookieValue(refreshCookieOf(await post('/api/auth/refresh', {}, { cookie: second })));

    const replayed = await post('/api/auth/refresh', {}, { cookie: first });
    expect(replayed.status).toBe(401);
    expect(refreshCookieOf(replayed)).toMatch(/spark_refresh=;/);
    // The legitimate holder's newer token died with its family.
    expect((await post('/api/auth/refresh', {}, { cookie: third })).status).toBe(401);
  });

  it('answers a visitor without a refresh cookie "no session" (200, null), and a malformed cookie 401, clearing it', async () => {
    // A first visit is not an error: browsers log every 4xx to the console, and the page checks on every load.
    const visitor = await post('/api/auth/refresh', {});
    expect(visitor.status).toBe(200);
    expect(await visitor.json()).toBeNull();
    expect(visitor.headers.getSetCookie()).toEqual([]);
    const otherCookiesOnly = await post('/api/auth/refresh', {}, { cookie: 'theme=dark' });
    expect([otherCookiesOnly.status, await otherCookiesOnly.json()]).toEqual([200, null]);

    for (const cookie of ['spark_refresh=', 'spark_refresh=short', `spark_refresh=${'x'.repeat(20)}!`]) {
      const refused = await post('/api/auth/refresh', {}, { cookie });
      expect([cookie, refused.status]).toEqual([cookie, 401]);
      expect(refreshCookieOf(refused)).toMatch(/spark_refresh=;/);
    }
  });

  it('signs out by revoking the refresh token on the server and clearing the cookie', async () => {
    await createUser('leaving@example.com');
    const { cookie } = await signIn('leaving@example.com');
    const signedOut = await post('/api/auth/sign-out', {}, { cookie });
    expect(signedOut.status).toBe(204);
    expect(refreshCookieOf(signedOut)).toMatch(/spark_refresh=;/);
    expect((await post('/api/auth/refresh', {}, { cookie })).status).toBe(401);
    expect((await post('/api/auth/sign-out', {})).status).toBe(204);
  });

  it('ends the session of the refresh cookie that a new sign-in replaces, and only once the sign-in succeeds', async () => {
    await createUser('first-on-device@example.com');
    await createUser('second-on-device@example.com');
    const { cookie: first, session: firstSession } = await signIn('first-on-device@example.com');
    await requestLink('second-on-device@example.com');
    const { link } = await waitForMail('second-on-device@example.com');

    const mistyped = await post('/api/auth/redeem', { email: 'second-on-device@example.com', code: '000000' }, { cookie: first });
    expect(mistyped.status).toBe(401);
    expect(refreshCookieOf(mistyped)).toBeUndefined();
    expect((await get('/api/auth/user', firstSession.access_token)).status).toBe(200);

    const replacing = await post('/api/auth/redeem', { token: tokenOf(link) }, { cookie: first });
    expect(replacing.status).toBe(200);
    expect(sessionSchema.parse(await replacing.json()).user.email).toBe('second-on-device@example.com');
    // Nobody holds the replaced cookie any more, so nobody could sign it out: the sign-in does.
    expect((await get('/api/auth/user', firstSession.access_token)).status).toBe(401);
    expect((await post('/api/auth/refresh', {}, { cookie: first })).status).toBe(401);
    expect((await post('/api/auth/refresh', {}, { cookie: cookieValue(refreshCookieOf(replacing)) })).status).toBe(200);
  });

  it('removes links and refresh tokens that expired a day ago as new ones are made, and keeps the rest', async () => {
    const goneId = await createUser('long-gone@example.com');
    const { cookie: goneCookie } = await signIn('long-gone@example.com');
    const rowsOf = async (userId: string) => {
      const { rows } = await db().query(
        `SELECT (SELECT count(*)::int FROM auth.magic_links WHERE user_id = $1) AS links, (SELECT count(*)::int FROM auth.refresh_tokens WHERE user_id = $1) AS tokens`,
        [userId],
      );
      return rows[0];
    };
    expect(await rowsOf(goneId)).toEqual({ links: 1, tokens: 1 });
    // Expired a day and an hour ago: the link holds the address it went to, and neither can be used any more.
    await db().query(`UPDATE auth.magic_links SET expires_at = now() - interval '25 hours' WHERE user_id = $1`, [goneId]);
    await db().query(`UPDATE auth.refresh_tokens SET expires_at = now() - interval '25 hours' WHERE user_id = $1`, [goneId]);

    const hereId = await createUser('still-here@example.com');
    const { cookie } = await signIn('still-here@example.com');
    expect((await rowsOf(goneId)).links).toBe(0);
    const renewed = await post('/api/auth/refresh', {}, { cookie });
    expect(renewed.status).toBe(200);
    expect(await rowsOf(goneId)).toEqual({ links: 0, tokens: 0 });
    expect(await rowsOf(hereId)).toEqual({ links: 1, tokens: 2 });
    expect((await post('/api/auth/refresh', {}, { cookie: goneCookie })).status).toBe(401);
  });

  it('answers 401 to no token, a tampered token, an expired token and a token for another audience', async () => {
    const userId = await createUser('jwt@example.com');
    const { session } = await signIn('jwt@example.com');
    const [header, payload, signature] = session.access_token.split('.');
    const forgedPayload = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()), role: 'admin' })).toString(
      'base64url',
    );
    const jwt = new JwtService({ secret: JWT_SECRET });
    const claims = { sub: userId, email: 'jwt@example.com', role: 'client' };
    const expired = jwt.sign(
      { ...claims, iat: Math.floor(Date.now() / 1000) - 3600 },
      { expiresIn: 900, issuer: ACCESS_TOKEN_ISSUER, audience: ACCESS_TOKEN_AUDIENCE },
    );
    const otherAudience = jwt.sign(claims, { expiresIn: 900, issuer: ACCESS_TOKEN_ISSUER, audience: 'someone-else' });
    const otherSecret = new JwtService({ secret: 'not-the-secret-0123456789' }).sign(claims, {
      expiresIn: 900,
      issuer: ACCESS_TOKEN_ISSUER,
      audience: ACCESS_TOKEN_AUDIENCE,
    });

    for (const token of [undefined, `${header}.${forgedPayload}.${signature}`, expired, otherAudience, otherSecret]) {
      const response = await get('/api/auth/user', token);
      expect(response.status).toBe(401);
      expect(errorBodySchema.parse(await response.json()).code).toBe('UNAUTHENTICATED');
    }
    expect((await get('/api/auth/user', session.access_token)).status).toBe(200);
  });

  it('lets admins list users by role and answers a coach or client 403', async () => {
    await createUser('some-coach@example.com', 'coach');
    await createUser('some-client@example.com');
    await createUser('some-admin@example.com', 'admin');
    // The list names every staff account: for a coach, or a stolen coach token, a ready list of whom to phish.
    for (const email of ['some-client@example.com', 'some-coach@example.com']) {
      const { session } = await signIn(email);
      const refused = await get('/api/auth/users?role=admin', session.access_token);
      expect(refused.status).toBe(403);
      expect(errorBodySchema.parse(await refused.json()).code).toBe('FORBIDDEN');
    }

    const { session: admin } = await signIn('some-admin@example.com');
    const response = await get('/api/auth/users?role=coach&limit=100', admin.access_token);
    expect(response.status).toBe(200);
    const page = userPageSchema.parse(await response.json());
    expect(page.items.map((user) => user.email)).toContain('some-coach@example.com');
    expect(page.items.every((user) => user.user_metadata.role === 'coach')).toBe(true);

    const found = userPageSchema.parse(await (await get('/api/auth/users?search=SOME-C', admin.access_token)).json());
    expect(found.items.map((user) => user.email).sort()).toEqual(['some-client@example.com', 'some-coach@example.com']);
    // LIKE's wildcards are plain characters in a search.
    expect(userPageSchema.parse(await (await get('/api/auth/users?search=%25', admin.access_token)).json()).items).toEqual([]);
  });

  it('lets a user update their own metadata but not their role or coach', async () => {
    await createUser('meta@example.com');
    const { session } = await signIn('meta@example.com');
    const patch = (body: unknown) => send('PATCH', '/api/auth/user', { accessToken: session.access_token, body });
    const updated = await patch({ full_name: 'Meta Person', transformation_goal: 'Sleep better', onboarding_completed_at: '2026-01-02T03:04:05.000Z' });
    expect(updated.status).toBe(200);
    expect(authUserSchema.parse(await updated.json()).user_metadata).toMatchObject({
      full_name: 'Meta Person',
      transformation_goal: 'Sleep better',
      onboarding_completed_at: '2026-01-02T03:04:05.000Z',
      role: 'client',
    });
    for (const forbidden of [{ role: 'admin' }, { assigned_coach_id: randomUUID() }]) {
      const refused = await patch(forbidden);
      expect(refused.status).toBe(400);
      expect(errorBodySchema.parse(await refused.json()).code).toBe('VALIDATION_FAILED');
    }
    const { rows } = await db().query(`SELECT role, full_name FROM auth.users WHERE email = 'meta@example.com'`);
    expect(rows[0]).toEqual({ role: 'client', full_name: 'Meta Person' });
  });

  describe('auth.invite, as the leads-service calls it', () => {
    it('creates the user, e-mails a ditl-welcome link, and hands the link back in development mode', async () => {
      const answer = await leadsBus().request(
        'auth.invite',
        approvedInvite({ email: 'Approved@Example.com', role: 'client', fullName: 'Ada Approved', next: 'ditl-welcome' }, 'coach'),
      );
      expect(answer.developmentMode).toBe(true);
      const magicLink = new URL(answer.magicLink ?? '');
      expect(magicLink.search).toBe('?next=ditl-welcome&approved=true');
      expect(tokenOf(magicLink)).toMatch(/^[\w-]{43}$/);
      const { rows } = await db().query(`SELECT id, role, full_name FROM auth.users WHERE email = 'approved@example.com'`);
      expect(rows).toEqual([{ id: answer.userId, role: 'client', full_name: 'Ada Approved' }]);

      const { mail, link } = await waitForMail('approved@example.com');
      expect(mail.subject).toBe('You are approved: your sign-in link for The Spark');
      expect(link.toString()).toBe(magicLink.toString());
      const redeemed = await post('/api/auth/redeem', { token: tokenOf(link) });
      expect(redeemed.status).toBe(200);
      expect(sessionSchema.parse(await redeemed.json()).user.user_metadata).toMatchObject({ role: 'client', full_name: 'Ada Approved' });
    });

    it('hands no link back for an account above client, even in development mode', async () => {
      await createUser('dev-existing-coach@example.com', 'coach');
      await createUser('dev-existing-admin@example.com', 'admin');
      // A team member's address is not invited as a client at all.
      for (const invite of [
        { email: 'dev-existing-coach@example.com', role: 'client' },
        { email: 'dev-existing-admin@example.com', role: 'client' },
      ] as const) {
        await expect(leadsBus().request('auth.invite', approvedInvite(invite))).rejects.toMatchObject({ code: 'ACCOUNT_ROLE_DIFFERS' });
      }
      const answer = await leadsBus().request('auth.invite', approvedInvite({ email: 'dev-new-coach@example.com', role: 'coach' }));
      expect(answer).toMatchObject({ developmentMode: true });
      expect(answer.magicLink).toBeUndefined();
    });

    it('never lowers an admin: an invitation as a client is refused and leaves their sign-in link working', async () => {
      await createUser('boss@example.com', 'admin');
      const openLinks = async () =>
        (await db().query(`SELECT id FROM auth.magic_links WHERE email = 'boss@example.com' AND used_at IS NULL AND expires_at > now()`)).rows;
      expect((await post('/api/auth/magic-link', { email: 'boss@example.com' })).status).toBe(202);
      const before = await openLinks();
      const invited = leadsBus().request('auth.invite', approvedInvite({ email: 'boss@example.com', role: 'client' }));
      await expect(invited).rejects.toMatchObject({ code: 'ACCOUNT_ROLE_DIFFERS' });
      const { rows } = await db().query(`SELECT role FROM auth.users WHERE email = 'boss@example.com'`);
      expect({ role: rows[0].role, openLinks: await openLinks() }).toEqual({ role: 'admin', openLinks: before });
    });
  });
});
