import { eventually, outlastDroppedConnections, type PrivateRedis, refusalOf, startPrivateRedis } from '@spark/testing';
import { Redis } from 'ioredis';
import { UploadSlots } from './upload-slots';

/** Upload slots on a Redis of the test's own, which it kills and starts again. */
describe('UploadSlots', () => {
  let server: PrivateRedis;
  let redis: Redis;
  let slots: UploadSlots;

  beforeAll(async () => {
    server = await startPrivateRedis();
    // As the gateway's shared connection is made.
    redis = new Redis(server.url, { maxRetriesPerRequest: 1 });
    redis.on('error', () => undefined);
    slots = new UploadSlots(redis, 'upload-slots-test', { perUser: 1, gatewayMemoryBytes: 1_000, leaseMs: 60_000 });
  });
  afterAll(async () => {
    redis.disconnect();
    await server.stop();
    await outlastDroppedConnections();
  });

  it("refuses a user's upload past their limit, and answers SERVICE_UNAVAILABLE while Redis is down, keeping no memory for it", async () => {
    const release = await slots.take('ada', 400);
    await expect(refusalOf(slots.take('ada', 400))).resolves.toMatchObject({ code: 'RATE_LIMITED' });
    release();

    await server.stop();
    await expect(refusalOf(slots.take('grace', 1_000))).resolves.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });

    // Back, the whole memory budget is free again: the refused upload gave its share back.
    await server.start();
    await eventually(
      async () => (await refusalOf(slots.take('grace', 1_000).then((released) => released()))) === undefined,
      10_000,
      'a slot once Redis is back',
    );
  });
});
