import { request } from 'node:http';
import { JwtService } from '@nestjs/jwt';
import { ACCESS_TOKEN_ISSUER, errorBodySchema, QUEUES, queueBoardTicketSchema, type Session, type UserRole } from '@spark/contracts';
import { developmentSigningKeys } from '@spark/config';
import { bullPrefix, JobQueues, signedJobData } from '@spark/jobs';
import { eventually } from '@spark/testing';
import { type Job, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { authService } from '../../auth-service/src/service';
import { signInTestFile } from './sign-in-client';

const JWT_SECRET = 'system-test-jwt-secret-queue-board';
const PUBLIC_URL = 'http://spark.test';

describe('the queue dashboard at /admin/queues (Bull Board), admins only', () => {
  const { stack, db, send, post, createUser, signIn, mailsTo } = signInTestFile({ services: [authService], env: { JWT_SECRET, PUBLIC_URL } }, '198.18.7');
  const signedIn = async (email: string, role: UserRole) => {
    await createUser(email, role);
    return signIn(email);
  };
  const ticketFor = (session: Session) => send('POST', '/api/admin/queue-board/tickets', { accessToken: session.access_token });
  /** Opens the ticket's address as the browser does; answers the board's cookie. */
  const boardCookieFor = async (session: Session) => {
    const ticket = queueBoardTicketSchema.parse(await (await ticketFor(session)).json());
    const opened = await fetch(`${stack().baseUrl}${ticket.url}`, { redirect: 'manual' });
    expect(opened.status).toBe(303);
    expect(opened.headers.get('location')).toBe('/admin/queues');
    const cookie = opened.headers.getSetCookie().find((value) => value.startsWith('spark_queue_board='));
    expect(cookie).toMatch(/; Path=\/admin\/queues; HttpOnly; SameSite=Strict$/);
    return { cookie: cookie?.split(';')[0] ?? '', url: ticket.url };
  };
  const auditedOpenings = async (email: string) =>
    (
      await db().query<{ outcome: string; target_type: string }>(
        `SELECT outcome, target_type FROM auth.audit_events WHERE action = 'queues.open' AND actor_email = $1`,
        [email],
      )
    ).rows;
  const board = (path: string, cookie: string, init: RequestInit = {}) =>
    fetch(`${stack().baseUrl}/admin/queues${path}`, { redirect: 'manual', ...init, headers: { cookie, ...init.headers } });
  /** A board request as curl can send it and fetch cannot: the request target as written, a fragment and all; answers the status. */
  const rawBoardRequest = (method: string, target: string, cookie = '') =>
    new Promise<number>((resolve, reject) => {
      const sent = request(`${stack().baseUrl}/`, { method, path: target, headers: { cookie, 'content-length': 0 } }, (answer) => {
        answer.resume();
        resolve(answer.statusCode ?? 0);
      });
      sent.on('error', reject).end();
    });
  const rawBoardWrite = (target: string, cookie: string) => rawBoardRequest('PUT', `/admin/queues${target}`, cookie);

  it('refuses the ticket to a coach, and the board to anyone without an admin pass', async () => {
    const coach = await signedIn('coach-at-the-board@example.com', 'coach');
    const refused = await ticketFor(coach.session);
    expect(refused.status).toBe(403);
    expect(errorBodySchema.parse(await refused.json())).toMatchObject({ code: 'FORBIDDEN' });
    expect((await send('POST', '/api/admin/queue-board/tickets')).status).toBe(401);

    const api = await board('/api/queues', '');
    expect(api.status).toBe(401);
    expect(errorBodySchema.parse(await api.json())).toMatchObject({ code: 'UNAUTHENTICATED' });
    const page = await board('', '');
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe('/signin');
    expect((await board('/api/queues', 'spark_queue_board=a.forged.pass')).status).toBe(401);
    // A target no URL parser reads (an absolute form with a broken host) is the caller's mistake, not the server's.
    for (const target of ['http://[::1/admin/queues/x', 'http://a%zz/admin/queues/api/queues', 'http://a:99999/admin/queues']) {
      expect(await rawBoardRequest('GET', target)).toBe(400);
    }
    const guessedTicket = await board('?ticket=' + 'x'.repeat(43), '');
    expect(guessedTicket.status).toBe(303);
    expect(guessedTicket.headers.get('location')).toBe('/signin');
    expect(guessedTicket.headers.getSetCookie()).toEqual([]);

    // Defence in depth: even a validly signed pass is refused unless it says admin.
    const coachPass = await new JwtService({ secret: JWT_SECRET }).signAsync(
      { sub: coach.session.user.id, email: coach.session.user.email, role: 'coach' },
      { issuer: ACCESS_TOKEN_ISSUER, audience: 'spark-queue-board', expiresIn: 60, algorithm: 'HS256' },
    );
    const forbidden = await board('/api/queues', `spark_queue_board=${coachPass}`);
    expect(forbidden.status).toBe(403);
    expect(errorBodySchema.parse(await forbidden.json())).toMatchObject({ code: 'FORBIDDEN' });
  });

  it('lets an admin in with a single-use ticket, and out again when the session ends', async () => {
    const admin = await signedIn('admin-at-the-board@example.com', 'admin');
    const { cookie, url } = await boardCookieFor(admin.session);
    const page = await board('', cookie);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("base-uri 'self'");
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    expect(html).toContain('<title>Spark queues</title>');
    expect(html).not.toContain('fonts.googleapis.com');
    const queues = await board('/api/queues', cookie);
    expect(queues.status).toBe(200);
    const names = ((await queues.json()) as { queues: { name: string }[] }).queues.map((queue) => queue.name);
    expect(names.sort()).toEqual(Object.values(QUEUES).sort());

    // The ticket is spent: opening its address again signs nobody in.
    const again = await fetch(`${stack().baseUrl}${url}`, { redirect: 'manual' });
    expect(again.headers.get('location')).toBe('/signin');
    expect(again.headers.getSetCookie()).toEqual([]);

    await eventually(async () => (await auditedOpenings(admin.session.user.email)).length > 0, 15_000, 'the opening to be audited');
    expect(await auditedOpenings(admin.session.user.email)).toEqual([{ outcome: 'succeeded', target_type: 'queue-board' }]);

    expect((await post('/api/auth/sign-out', {}, { cookie: admin.cookie })).status).toBe(204);
    const afterSignOut = await board('/api/queues', cookie);
    expect(afterSignOut.status).toBe(401);
    expect(errorBodySchema.parse(await afterSignOut.json())).toMatchObject({ message: 'You signed out of this session. Please sign in again.' });
  });

  it('shuts the board to an admin whose role was taken away, at once', async () => {
    const admin = await signedIn('admin-stepping-down@example.com', 'admin');
    const other = await signedIn('admin-remaining@example.com', 'admin');
    const { cookie } = await boardCookieFor(admin.session);
    expect((await board('/api/queues', cookie)).status).toBe(200);
    const demoted = await send('PATCH', `/api/admin/users/${admin.session.user.id}/role`, { accessToken: other.session.access_token, body: { role: 'coach' } });
    expect(demoted.status).toBe(200);
    const refused = await board('/api/queues', cookie);
    expect(refused.status).toBe(401);
    expect(errorBodySchema.parse(await refused.json())).toMatchObject({ message: 'Your role changed. Please sign in again.' });
  });

  it('refuses a board write sent from another site', async () => {
    const admin = await signedIn('admin-cross-site@example.com', 'admin');
    const { cookie } = await boardCookieFor(admin.session);
    const crossSite = await board(`/api/queues/${QUEUES.mail}/retry/failed`, cookie, { method: 'PUT', headers: { 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.status).toBe(403);
    expect(errorBodySchema.parse(await crossSite.json())).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('another site') });
  });

  it('lists a failed mail job and retries it, and the notifier then delivers the e-mail', async () => {
    const admin = await signedIn('admin-retrying@example.com', 'admin');
    const { cookie } = await boardCookieFor(admin.session);
    const email = 'retried-mail@example.com';
    const connection = new Redis(stack().env.REDIS_URL ?? '', { maxRetriesPerRequest: null });
    const jobs = new JobQueues(connection, stack().env.BUS_PREFIX ?? '');
    // The SMTP server was down for this job's whole retry budget: a worker that cannot deliver takes it instead of the notifier.
    await stack().stopNotifier();
    const outage = new Worker(QUEUES.mail, () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:25')), {
      connection,
      prefix: bullPrefix(stack().env.BUS_PREFIX ?? ''),
    });
    try {
      const jobId = `queue-board-${Date.now()}`;
      const data = signedJobData(developmentSigningKeys(), { queue: QUEUES.mail, name: 'code-sign-in-locked', data: { email } }, jobId);
      await jobs.queue(QUEUES.mail).add('code-sign-in-locked', data, { jobId, attempts: 1 });
      await eventually(async () => Boolean((await jobs.queue(QUEUES.mail).getJob(jobId))?.failedReason), 15_000, 'the job to fail');
      await outage.close();

      const listed = await board(`/api/queues?activeQueue=${QUEUES.mail}&status=failed&page=1`, cookie);
      const mail = ((await listed.json()) as { queues: { name: string; jobs: { id: string; failedReason: string }[] }[] }).queues.find(
        (queue) => queue.name === QUEUES.mail,
      );
      expect(mail?.jobs).toEqual([expect.objectContaining({ id: jobId, failedReason: 'connect ECONNREFUSED 127.0.0.1:25' })]);

      await stack().startNotifier();
      const retried = await board(`/api/queues/${QUEUES.mail}/${jobId}/retry`, cookie, {
        method: 'PUT',
        headers: { 'sec-fetch-site': 'same-origin', origin: PUBLIC_URL },
      });
      expect(retried.status).toBe(204);
      await eventually(() => mailsTo(email).length > 0, 15_000, 'the retried e-mail');
      // The SMTP server has the e-mail a moment before the notifier records the job done.
      await eventually(async () => (await jobs.queue(QUEUES.mail).getJobState(jobId)) === 'completed', 15_000, 'the retried job to complete');

      // Bull Board would run a completed job again; the board retries only failed ones.
      const again = await board(`/api/queues/${QUEUES.mail}/${jobId}/retry`, cookie, {
        method: 'PUT',
        headers: { 'sec-fetch-site': 'same-origin', origin: PUBLIC_URL },
      });
      expect(again.status).toBe(409);
      expect(await jobs.queue(QUEUES.mail).getJobState(jobId)).toBe('completed');
    } finally {
      await outage.close();
      await jobs.close();
      connection.disconnect();
    }
  });

  it("never shows a job's secrets: not in its data, failed reason, stack trace, logs or return value", async () => {
    const admin = await signedIn('admin-reading-jobs@example.com', 'admin');
    const { cookie } = await boardCookieFor(admin.session);
    const connection = new Redis(stack().env.REDIS_URL ?? '', { maxRetriesPerRequest: null });
    const jobs = new JobQueues(connection, stack().env.BUS_PREFIX ?? '');
    const deletionToken = 'the-secret-account-deletion-token';
    const confirmUrl = `${PUBLIC_URL}/account/delete#token=${deletionToken}`;
    const unsubscribeToken = 'the-secret-reminder-unsubscribe-token';
    const pushEndpoint = 'https://push.test/send/the-secret-push-endpoint';
    const pushAuthKey = 'the-secret-push-auth-key';
    const secrets = [deletionToken, unsubscribeToken, 'the-secret-push-endpoint', pushAuthKey];
    const expiresAt = new Date(Date.now() + 30 * 60_000).toISOString();
    await stack().stopNotifier();
    // A delivery that logs and returns what it sent, and fails quoting the link, as an SMTP server's rejection may.
    const careless = new Worker(
      QUEUES.mail,
      async (job: Job<Record<string, string>>) => {
        await job.log(`sending ${JSON.stringify(job.data)}`);
        if (job.name === 'account-deletion-confirm') throw new Error(`550 message refused: ${job.data.confirmUrl}`);
        return { unsubscribeUrl: `${PUBLIC_URL}/api/reminders/unsubscribe?token=${job.data.unsubscribeToken}` };
      },
      { connection, prefix: bullPrefix(stack().env.BUS_PREFIX ?? ''), autorun: false },
    );
    // Awaited before the connection is dropped: a run still going then fails on it, with no one to hear the error.
    const delivering = careless.run();
    try {
      const deletionJobId = `queue-board-deletion-${Date.now()}`;
      const reminderJobId = `queue-board-reminder-${Date.now()}`;
      const pushJobId = `queue-board-push-${Date.now()}`;
      await jobs
        .queue(QUEUES.mail)
        .add('account-deletion-confirm', { email: 'leaving@example.com', confirmUrl, expiresAt }, { jobId: deletionJobId, attempts: 1 });
      await jobs.queue(QUEUES.mail).add('spark-reminder', { email: 'reminded@example.com', firstName: 'Rita', unsubscribeToken }, { jobId: reminderJobId });
      await jobs
        .queue(QUEUES.push)
        .add(
          'spark-reminder-push',
          { subscription: { endpoint: pushEndpoint, keys: { p256dh: 'BPublicKeyOfTheDevice', auth: pushAuthKey } }, firstName: 'Rita' },
          { jobId: pushJobId },
        );
      await eventually(async () => Boolean((await jobs.queue(QUEUES.mail).getJob(deletionJobId))?.failedReason), 15_000, 'the deletion e-mail to fail');
      await eventually(async () => (await jobs.queue(QUEUES.mail).getJobState(reminderJobId)) === 'completed', 15_000, 'the reminder to complete');
      await careless.close();

      const paths = [
        `/api/queues?activeQueue=${QUEUES.mail}&status=latest&page=1`,
        `/api/queues?activeQueue=${QUEUES.mail}&status=failed&page=1`,
        `/api/queues?activeQueue=${QUEUES.mail}&status=completed&page=1`,
        `/api/queues?activeQueue=${QUEUES.push}&status=waiting&page=1`,
        `/api/queues/${QUEUES.mail}/${deletionJobId}`,
        `/api/queues/${QUEUES.mail}/${deletionJobId}/logs`,
        `/api/queues/${QUEUES.mail}/${reminderJobId}`,
        `/api/queues/${QUEUES.mail}/${reminderJobId}/logs`,
        `/api/queues/${QUEUES.push}/${pushJobId}`,
      ];
      const answers = await Promise.all(paths.map(async (path) => ({ path, answer: await board(path, cookie) })));
      for (const { path, answer } of answers) {
        expect({ path, status: answer.status }).toEqual({ path, status: 200 });
        const text = await answer.text();
        for (const secret of secrets) expect({ path, leaks: text.includes(secret) }).toEqual({ path, leaks: false });
      }

      // What is no secret stays readable: whom the e-mail is for, when its link expires, why it failed.
      const deletion = (await (await board(`/api/queues/${QUEUES.mail}/${deletionJobId}`, cookie)).json()) as {
        job: { data: unknown; failedReason: string };
      };
      expect(deletion.job.data).toEqual({ email: 'leaving@example.com', confirmUrl: '(hidden)', expiresAt });
      expect(deletion.job.failedReason).toBe('550 message refused: (hidden)');
      const deletionLogs = await (await board(`/api/queues/${QUEUES.mail}/${deletionJobId}/logs`, cookie)).json();
      expect(deletionLogs).toEqual([expect.stringContaining('"confirmUrl":"(hidden)"')]);
      const reminder = (await (await board(`/api/queues/${QUEUES.mail}/${reminderJobId}`, cookie)).json()) as { job: { returnValue: unknown } };
      expect(reminder.job.returnValue).toEqual({ unsubscribeUrl: `${PUBLIC_URL}/api/reminders/unsubscribe?token=(hidden)` });
    } finally {
      await careless.close();
      await delivering;
      await jobs.queue(QUEUES.mail).obliterate({ force: true });
      await jobs.queue(QUEUES.push).obliterate({ force: true });
      await jobs.close();
      connection.disconnect();
      await stack().startNotifier();
    }
  });

  it('lets an admin look and retry, but not change, add, move or delete jobs, and hides sign-in links and codes and data export links', async () => {
    const admin = await signedIn('admin-looking@example.com', 'admin');
    const { cookie } = await boardCookieFor(admin.session);
    const connection = new Redis(stack().env.REDIS_URL ?? '', { maxRetriesPerRequest: null });
    const jobs = new JobQueues(connection, stack().env.BUS_PREFIX ?? '');
    await stack().stopNotifier();
    try {
      const jobId = `queue-board-secret-${Date.now()}`;
      const link = 'http://spark.test/magic-link-auth#token=the-secret-sign-in-token';
      await jobs
        .queue(QUEUES.mail)
        .add('magic-link', { email: 'victim@example.com', link, code: '424242', expiresAt: new Date().toISOString(), purpose: 'sign-in' }, { jobId });
      const shown = await (await board(`/api/queues/${QUEUES.mail}/${jobId}`, cookie)).text();
      expect(shown).toContain('victim@example.com');
      expect(shown).not.toContain('the-secret-sign-in-token');
      expect(shown).not.toContain('424242');
      const exportJobId = `queue-board-export-${Date.now()}`;
      const downloadUrl = 'http://s3.test/sparks/exports/the-client.zip?X-Amz-Signature=the-secret-signature';
      await jobs
        .queue(QUEUES.mail)
        .add('data-export-ready', { email: 'victim@example.com', downloadUrl, expiresAt: new Date().toISOString() }, { jobId: exportJobId });
      const exportShown = await (await board(`/api/queues/${QUEUES.mail}/${exportJobId}`, cookie)).text();
      expect(exportShown).toContain('victim@example.com');
      expect(exportShown).not.toContain('the-secret-signature');
      await jobs.queue(QUEUES.mail).remove(exportJobId);

      const write = (path: string, method: string, body?: object) =>
        board(path, cookie, {
          method,
          headers: { 'sec-fetch-site': 'same-origin', origin: PUBLIC_URL, ...(body ? { 'content-type': 'application/json' } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        });
      const refused = [
        await write(`/api/queues/${QUEUES.mail}/${jobId}/update-data`, 'PATCH', { jobData: { email: 'attacker@example.com', link, code: '424242' } }),
        await write(`/api/queues/${QUEUES.mail}/add`, 'POST', { name: 'magic-link', data: { email: 'attacker@example.com' } }),
        await write(`/api/queues/${QUEUES.mail}/${jobId}/promote`, 'PUT'),
        await write(`/api/queues/${QUEUES.mail}/${jobId}/clean`, 'PUT'),
        await write(`/api/queues/${QUEUES.mail}/clean/failed`, 'PUT'),
        await write(`/api/queues/${QUEUES.mail}/pause`, 'PUT'),
        await write(`/api/queues/${QUEUES.mail}/empty`, 'PUT'),
      ];
      expect(refused.map((response) => response.status)).toEqual([403, 403, 403, 403, 403, 403, 403]);
      // A fragment is no part of the path the board routes, so the path checked must not end in it either.
      const smuggled = [
        await rawBoardWrite(`/api/queues/${QUEUES.mail}/pause#x/retry`, cookie),
        await rawBoardWrite(`/api/queues/pause#/x/retry`, cookie),
        await rawBoardWrite(`/api/queues/${QUEUES.mail}/empty#x/retry`, cookie),
      ];
      expect(smuggled).toEqual([403, 403, 403]);
      expect(await jobs.queue(QUEUES.mail).isPaused()).toBe(false);
      expect((await jobs.queue(QUEUES.mail).getJob(jobId))?.data).toMatchObject({ email: 'victim@example.com', link });
      expect(await jobs.queue(QUEUES.mail).count()).toBe(1);
    } finally {
      await jobs.queue(QUEUES.mail).obliterate({ force: true });
      await jobs.close();
      connection.disconnect();
      await stack().startNotifier();
    }
  });
});
