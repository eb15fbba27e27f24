import { errorBodySchema, sessionSchema } from '@spark/contracts';
import { eventually } from '@spark/testing';
import { authService } from '../../auth-service/src/service';
import { signInTestFile } from './sign-in-client';

const LOCKOUT_SUBJECT = 'Sign-in codes paused for your Spark account';

/** Some other 6-digit code than `code`. */
const wrongCodeFor = (code: string) => (code === '000000' ? '111111' : '000000');

describe('6-digit sign-in codes against guessing and account enumeration', () => {
  // A client address per test, so the gateway's per-IP limits never decide a test about codes.
  const { db, bus, post, createUser, mailsTo, requestLink, waitForMail, freshSignInEmail } = signInTestFile(
    { services: [authService], env: { JWT_SECRET: 'system-test-jwt-secret-codes-0123', PUBLIC_URL: 'http://spark.test' } },
    '192.0.2',
  );
  const guess = (email: string, code: string) => post('/api/auth/redeem', { email, code });
  const lockoutMailsTo = (email: string) => mailsTo(email).filter((mail) => mail.subject === LOCKOUT_SUBJECT);
  const failureBody = async (response: Response) => {
    expect(response.status).toBe(401);
    const { code, message } = errorBodySchema.parse(await response.json());
    return { code, message };
  };

  it('counts wrong codes per address across codes: the 11th guess is refused even when right, the owner is told once, a used link unlocks', async () => {
    const email = 'guessed@example.com';
    await createUser(email);
    for (const round of [1, 2]) {
      const { code } = await freshSignInEmail(email, round);
      for (let i = 0; i < 5; i++) expect((await guess(email, wrongCodeFor(code))).status).toBe(401);
    }
    const third = await freshSignInEmail(email, 3);
    expect((await guess(email, third.code)).status).toBe(401);

    const [lockout] = await eventually(() => lockoutMailsTo(email).length > 0 && lockoutMailsTo(email), 10_000, 'the lockout e-mail');
    expect(lockout?.text).toContain('10 wrong sign-in codes');
    expect(lockout?.text).toContain('http://spark.test/signin');

    // The link of the same e-mail still works, and using it lifts the lock.
    expect((await post('/api/auth/redeem', { token: third.token })).status).toBe(200);
    const fourth = await freshSignInEmail(email, 4);
    const signedIn = await guess(email, fourth.code);
    expect(signedIn.status).toBe(200);
    expect(sessionSchema.parse(await signedIn.json()).user.email).toBe(email);
    expect(lockoutMailsTo(email)).toHaveLength(1);
  });

  it('lets 20 parallel wrong guesses count as no more than 10, with or without an account, and e-mails only an owner', async () => {
    const known = 'parallel-known@example.com';
    const unknown = 'parallel-unknown@example.com';
    await createUser(known);
    const { code } = await freshSignInEmail(known, 1);
    // Over the bus, as the gateway sends them: the gateway's own per-IP and per-address limits are not what is tested here.
    const answers = await Promise.allSettled(
      [known, unknown].flatMap((email) => Array.from({ length: 20 }, () => bus().request('auth.redeem', { email, code: wrongCodeFor(code) }))),
    );
    expect(answers.map((answer) => (answer.status === 'rejected' ? (answer.reason as { code?: string }).code : 'signed in'))).toEqual(
      Array<string>(40).fill('UNAUTHENTICATED'),
    );
    const { rows } = await db().query(
      `SELECT failures FROM auth.code_guesses WHERE email_hash IN (sha256(convert_to($1, 'UTF8')), sha256(convert_to($2, 'UTF8'))) ORDER BY failures`,
      [known, unknown],
    );
    expect(rows).toEqual([{ failures: 10 }, { failures: 10 }]);

    const fresh = await freshSignInEmail(known, 2);
    expect((await guess(known, fresh.code)).status).toBe(401);
    await eventually(() => lockoutMailsTo(known).length === 1, 10_000, 'the lockout e-mail');
    const { rows: jobs } = await db().query(`SELECT payload->>'email' AS email FROM auth.outbox WHERE job_name = 'code-sign-in-locked'`);
    expect(jobs.map((job: { email: string }) => job.email)).not.toContain(unknown);
  });

  it('answers every failed code the same 401 with the same words: wrong, no open code, unknown address, expired, locked', async () => {
    await createUser('open-code@example.com');
    await createUser('no-code@example.com');
    await createUser('expired-code@example.com');
    await requestLink('open-code@example.com');
    await requestLink('expired-code@example.com');
    const open = await waitForMail('open-code@example.com');
    const expired = await waitForMail('expired-code@example.com');
    await db().query(`UPDATE auth.magic_links SET expires_at = now() - interval '1 second' WHERE email = 'expired-code@example.com'`);
    await Promise.allSettled(Array.from({ length: 10 }, () => bus().request('auth.redeem', { email: 'locked-out@example.com', code: '123456' })));

    const answers = [
      await failureBody(await guess('open-code@example.com', wrongCodeFor(open.code))),
      await failureBody(await guess('no-code@example.com', '123456')),
      await failureBody(await guess('nobody-at-all@example.com', '123456')),
      await failureBody(await guess('expired-code@example.com', expired.code)),
      await failureBody(await guess('locked-out@example.com', '123456')),
    ];
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect(answers[0]?.code).toBe('UNAUTHENTICATED');
    expect(answers[0]?.message).not.toMatch(/\d|tries left/);
  });

  it('gives exactly one session to 20 simultaneous redemptions of one code', async () => {
    const email = 'code-race@example.com';
    await createUser(email);
    const { code } = await freshSignInEmail(email, 1);
    const answers = await Promise.all(Array.from({ length: 20 }, () => guess(email, code)));
    // The others are refused (401), or stopped earlier by a per-address limit (429); never a second session.
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(answers.every((answer) => [200, 401, 429].includes(answer.status))).toBe(true);
    const { rows } = await db().query(
      `SELECT count(DISTINCT family_id)::int AS families FROM auth.refresh_tokens t JOIN auth.users u ON u.id = t.user_id WHERE u.email = $1`,
      [email],
    );
    expect(rows[0].families).toBe(1);
  });
});
