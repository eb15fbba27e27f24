import { testRedisUrl, uniquePrefix } from '@spark/testing';
import { Redis } from 'ioredis';
import { cooldownKeys, MailCooldown } from './mail-cooldown';

const MINUTE = 60_000;

describe('MailCooldown against a real Redis', () => {
  let redis: Redis;
  let prefix: string;
  let cooldown: MailCooldown;

  beforeAll(async () => {
    redis = new Redis(await testRedisUrl());
    prefix = uniquePrefix('cooldown');
    cooldown = new MailCooldown(redis, prefix);
  });
  afterAll(async () => {
    await redis.quit();
  });

  /** The wait the address's last e-mail started, in ms, read off its key. */
  const waitStarted = (email: string) => redis.pttl(cooldownKeys(prefix, email).slot);
  /** The wait is over, as if its time had passed. */
  const waitOver = (email: string) => redis.del(cooldownKeys(prefix, email).slot);

  it('lets one e-mail through, then refuses the address until its wait is over, telling how long', async () => {
    expect(await cooldown.take('ada@example.com')).toBeUndefined();
    expect(await cooldown.take('ada@example.com')).toEqual({ retryAfterSeconds: 60 });
    expect(await cooldown.take('grace@example.com')).toBeUndefined();
  });

  // A script asking for someone's link every minute would otherwise fill their inbox all day and void each link within a minute.
  it('doubles the wait with each e-mail to the address, up to an hour, so a script cannot flood an inbox', async () => {
    const email = 'flooded@example.com';
    const waits: number[] = [];
    for (let sent = 0; sent < 8; sent += 1) {
      expect(await cooldown.take(email)).toBeUndefined();
      waits.push(Math.round((await waitStarted(email)) / MINUTE));
      await waitOver(email);
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 60, 60]);
    // Counted for a day from the first e-mail: then the address starts again at a minute.
    const countLeft = await redis.pttl(cooldownKeys(prefix, email).sent);
    expect(countLeft).toBeGreaterThan(23 * 60 * MINUTE);
    expect(countLeft).toBeLessThanOrEqual(24 * 60 * MINUTE);
  });
});
