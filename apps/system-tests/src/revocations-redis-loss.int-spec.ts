import { errorBodySchema, type Session } from '@spark/contracts';
import { eventually, outlastDroppedConnections, type PrivateRedis, startPrivateRedis } from '@spark/testing';
import { Redis } from 'ioredis';
import { authService } from '../../auth-service/src/service';
import { progressService } from '../../progress-service/src/service';
import { signInTestFile } from './sign-in-client';

const JWT_SECRET = 'system-test-jwt-secret-redis-loss-01';

/**
 * The markers that end access tokens at once live in Redis, which may restart or be emptied. The auth-service keeps a
 * copy in PostgreSQL and writes it back once it sees Redis lost its data, so a token ended before the loss stays ended.
 */
describe('ended sessions after Redis lost its data', () => {
  let redis: PrivateRedis | undefined;
  // Filled in before the stack starts: the stack's apps all connect to this Redis of the test's own.
  const ownRedis = { adminUrl: '', urlOf: () => ownRedis.adminUrl };
  beforeAll(async () => {
    redis = await startPrivateRedis();
    ownRedis.adminUrl = redis.url;
  });
  const { stack, send, post, createUser, signIn } = signInTestFile(
    { services: [authService, progressService], redis: ownRedis, env: { JWT_SECRET } },
    '198.18.9',
  );
  afterAll(async () => {
    await redis?.stop();
    await outlastDroppedConnections();
  });

  const readSelf = (session: Session) => send('GET', '/api/auth/user', { accessToken: session.access_token });
  // Answered by the progress-service, which keeps running while the auth-service is away.
  const readSparks = (session: Session) => send('GET', '/api/sparks', { accessToken: session.access_token });
  const messageOf = async (response: Response) => errorBodySchema.parse(await response.json()).message;
  const signedInAs = async (email: string, role: 'client' | 'coach' | 'admin') => ({ id: await createUser(email, role), ...(await signIn(email)) });

  it('keeps refusing a signed-out token and a demoted coach’s token once Redis restarted empty', async () => {
    const signedOut = await signedInAs('signed-out-before-loss@example.com', 'client');
    const admin = await signedInAs('admin-before-loss@example.com', 'admin');
    const coach = await signedInAs('coach-before-loss@example.com', 'coach');
    const untouched = await signedInAs('untouched-by-loss@example.com', 'client');

    expect((await post('/api/auth/sign-out', {}, { cookie: signedOut.cookie })).status).toBe(204);
    const demoted = await send('PATCH', `/api/admin/users/${coach.id}/role`, { accessToken: admin.session.access_token, body: { role: 'client' } });
    expect(demoted.status).toBe(200);
    expect((await readSelf(signedOut.session)).status).toBe(401);
    expect((await readSelf(coach.session)).status).toBe(401);

    await redis?.stop();
    await redis?.start();

    // Once the stack is back on the empty Redis, the live session reads again, and the ended ones still do not.
    await eventually(async () => ((await readSelf(untouched.session)).status === 200 ? true : undefined), 30_000, 'the stack to reconnect');
    await eventually(
      async () => {
        const [afterSignOut, afterDemotion] = await Promise.all([readSelf(signedOut.session), readSelf(coach.session)]);
        return afterSignOut.status === 401 && afterDemotion.status === 401 ? { afterSignOut, afterDemotion } : undefined;
      },
      15_000,
      'the ended sessions to be refused again',
    ).then(async ({ afterSignOut, afterDemotion }) => {
      expect(await messageOf(afterSignOut)).toBe('You signed out of this session. Please sign in again.');
      expect(await messageOf(afterDemotion)).toBe('Your role changed. Please sign in again.');
    });
  }, 90_000);

  it('keeps refusing a signed-out token once Redis was emptied without a restart', async () => {
    const signedOut = await signedInAs('signed-out-before-flush@example.com', 'client');
    expect((await post('/api/auth/sign-out', {}, { cookie: signedOut.cookie })).status).toBe(204);
    expect((await readSelf(signedOut.session)).status).toBe(401);

    // No connection drops: nothing but the data tells anyone that Redis lost it.
    const admin = new Redis(ownRedis.adminUrl);
    await admin.flushall();
    admin.disconnect();

    const refused = await eventually(
      async () => {
        const response = await readSelf(signedOut.session);
        return response.status === 401 ? response : undefined;
      },
      15_000,
      'the signed-out session to be refused again',
    );
    expect(await messageOf(refused)).toBe('You signed out of this session. Please sign in again.');
  }, 60_000);

  it('answers signed-in requests 503, not with their data, until the auth-service has written the markers back', async () => {
    const signedOut = await signedInAs('signed-out-before-unseen-loss@example.com', 'client');
    const untouched = await signedInAs('untouched-by-unseen-loss@example.com', 'client');
    expect((await post('/api/auth/sign-out', {}, { cookie: signedOut.cookie })).status).toBe(204);
    expect((await readSelf(signedOut.session)).status).toBe(401);

    // Redis loses its data while no auth-service runs to notice: the markers are gone until one comes back.
    await stack().stopService('auth');
    const admin = new Redis(ownRedis.adminUrl);
    await admin.flushall();
    admin.disconnect();

    const [afterSignOut, live] = await Promise.all([readSparks(signedOut.session), readSparks(untouched.session)]);
    expect([afterSignOut.status, live.status]).toEqual([503, 503]);
    expect(await messageOf(afterSignOut)).toBe('Please try again in a moment.');

    await stack().startService('auth');
    await eventually(async () => ((await readSparks(untouched.session)).status === 200 ? true : undefined), 15_000, 'the live session to read again');
    const refused = await readSparks(signedOut.session);
    expect(refused.status).toBe(401);
    expect(await messageOf(refused)).toBe('You signed out of this session. Please sign in again.');
  }, 60_000);
});
