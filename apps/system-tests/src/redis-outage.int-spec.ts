import { randomUUID } from 'node:crypto';
import { errorBodySchema } from '@spark/contracts';
import { eventually, outlastDroppedConnections, type PrivateRedis, startPrivateRedis, uniquePrefix } from '@spark/testing';
import { SessionIssuer } from '../../auth-service/src/tooling';
import { startGateway } from '../../gateway/src/main';

const JWT_SECRET = `redis-outage-${randomUUID()}`;

/**
 * The gateway while its Redis is down, on a Redis of the test's own that it kills and starts again: rate limits
 * cannot be counted and sessions cannot be checked, so a request is refused as unavailable (503), never as a server
 * error, and answered again once Redis is back.
 */
describe('the gateway while Redis is down', () => {
  let redis: PrivateRedis;
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  // An admin's access token as the auth-service signs it; no auth-service runs here.
  const issuer = new SessionIssuer(JWT_SECRET);
  const admin = {
    id: randomUUID(),
    email: 'admin@example.com',
    role: 'admin' as const,
    full_name: 'Ada Admin',
    onboarding_completed_at: null,
    transformation_goal: null,
    assigned_coach_id: null,
    created_at: new Date(),
  };
  const adminToken = issuer.session(admin, issuer.newRefreshToken(), randomUUID()).session.access_token;

  const post = (path: string, body: unknown, accessToken?: string) =>
    fetch(`${gateway.url.replace('[::1]', '127.0.0.1')}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}) },
      body: JSON.stringify(body),
    });
  const codeOf = async (response: Response) => ({ status: response.status, code: errorBodySchema.parse(await response.json()).code });
  const unavailable = { status: 503, code: 'SERVICE_UNAVAILABLE' };

  beforeAll(async () => {
    redis = await startPrivateRedis();
    gateway = await startGateway({
      ...process.env,
      REDIS_URL: redis.url,
      BUS_PREFIX: uniquePrefix('redis-outage'),
      JWT_SECRET,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'silent',
    });
  }, 60_000);
  afterAll(async () => {
    await redis.stop();
    await outlastDroppedConnections();
  });

  it('answers 503 to a deck download, an interest form and a signed-in request, and takes requests again once Redis is back', async () => {
    // With Redis up the download's limit is counted and a malformed code is refused as a wrong one.
    await expect(codeOf(await post('/api/investors/deck-download', { accessCode: '?' }))).resolves.toEqual({ status: 403, code: 'FORBIDDEN' });

    await redis.stop();

    // Its limit counted on its own, before anything else.
    await expect(codeOf(await post('/api/investors/deck-download', { accessCode: '?' }))).resolves.toEqual(unavailable);
    // Its limits counted as its request is sent.
    await expect(codeOf(await post('/api/leads', { email: 'outage@example.com' }))).resolves.toEqual(unavailable);
    // Its session checked first (a token that did not verify would be answered 401).
    await expect(codeOf(await post('/api/admin/queue-board/tickets', {}, adminToken))).resolves.toEqual(unavailable);

    await redis.start();
    await eventually(async () => (await post('/api/investors/deck-download', { accessCode: '?' })).status === 403, 30_000, 'the gateway to reconnect');
  }, 60_000);

  it('stops while Redis is down, without waiting for it to come back', async () => {
    await redis.stop();
    await expect(codeOf(await post('/api/leads', { email: 'outage@example.com' }))).resolves.toEqual(unavailable);
    await gateway.stop();
  }, 15_000);
});
