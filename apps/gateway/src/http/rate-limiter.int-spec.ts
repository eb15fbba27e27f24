import { randomBytes } from 'node:crypto';
import { refusalOf } from '@spark/testing';
import Redis from 'ioredis';
import { type RateLimit, RateLimiter } from './rate-limiter';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const PER_IP: RateLimit = { name: 'test-per-ip', max: 4, windowMs: 60_000 };
const PER_MAILBOX: RateLimit = { name: 'test-per-mailbox', max: 2, windowMs: 24 * 60 * 60_000 };

let redis: Redis;
let prefix: string;

beforeAll(() => {
  redis = new Redis(redisUrl);
});
beforeEach(() => {
  prefix = `test-${randomBytes(6).toString('hex')}`;
});
afterEach(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
});
afterAll(() => redis.disconnect());

describe('RateLimiter: limits counted, and a bus request admitted only within them', () => {
  // The command stands for the request's XADD: the list holds what was let through.
  const admit = (limiter: RateLimiter, mailbox: string, item: string) =>
    limiter
      .admission({ limit: PER_IP, subject: '203.0.113.7' }, { limit: PER_MAILBOX, subject: mailbox })
      .runIfAdmitted({ name: 'RPUSH', key: `${prefix}:admitted`, args: [item] });
  const admitted = () => redis.lrange(`${prefix}:admitted`, 0, -1);

  it('runs the command while every limit holds, and not once one is over, answering RATE_LIMITED with the longest wait', async () => {
    const limiter = new RateLimiter(redis, prefix);

    await admit(limiter, 'ada', 'first');
    await admit(limiter, 'ada', 'second');
    const overMailbox = await refusalOf(admit(limiter, 'ada', 'third'));
    await admit(limiter, 'grace', 'fourth');
    const overIp = await refusalOf(admit(limiter, 'grace', 'fifth'));

    expect(await admitted()).toEqual(['first', 'second', 'fourth']);
    expect(overMailbox).toMatchObject({ code: 'RATE_LIMITED', details: { retryAfterSeconds: 24 * 60 * 60 } });
    expect(overIp).toMatchObject({ code: 'RATE_LIMITED', details: { retryAfterSeconds: 60 } });
    expect(overIp?.message).toMatch(/^Too many requests\. Please try again in/);
  });

  it('counts a refused request too, as a plain hit does', async () => {
    const limiter = new RateLimiter(redis, prefix);
    for (const item of ['a', 'b', 'c', 'd']) await refusalOf(admit(limiter, 'ada', item));

    await expect(limiter.hit({ limit: PER_IP, subject: '203.0.113.7' })).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    expect(await admitted()).toEqual(['a', 'b']);
  });

  it('writes no counter of a later limit once an earlier one refuses: a flood of fresh addresses from one client adds no keys', async () => {
    const limiter = new RateLimiter(redis, prefix);
    for (let item = 0; item < 50; item++) await refusalOf(admit(limiter, `mailbox-${item}`, `item-${item}`));

    expect(await admitted()).toHaveLength(PER_IP.max);
    // Each counter lives its whole window: one per refused address would let one client fill Redis for a day.
    expect(await redis.keys(`${prefix}:gateway:rate-limit:${PER_MAILBOX.name}:*`)).toHaveLength(PER_IP.max);
  });

  it('answers the longest wait of the limits a request is over, though it counts only up to the first', async () => {
    const limiter = new RateLimiter(redis, prefix);
    await admit(limiter, 'ada', 'first');
    await admit(limiter, 'ada', 'second');
    await admit(limiter, 'grace', 'third');
    await admit(limiter, 'grace', 'fourth');

    // Over the address's limit (a minute) and the mailbox's (a day): told the day, not a minute then a day.
    expect(await refusalOf(admit(limiter, 'ada', 'fifth'))).toMatchObject({ details: { retryAfterSeconds: 24 * 60 * 60 } });
    expect(await redis.get(`${prefix}:gateway:rate-limit:${PER_MAILBOX.name}:ada`)).toBe('2');
  });

  it('gives a counter found without a window one, instead of refusing for good', async () => {
    const limiter = new RateLimiter(redis, prefix);
    const counter = `${prefix}:gateway:rate-limit:${PER_IP.name}:203.0.113.7`;
    await redis.set(counter, PER_IP.max);

    expect(await refusalOf(limiter.hit({ limit: PER_IP, subject: '203.0.113.7' }))).toMatchObject({ details: { retryAfterSeconds: 60 } });
    expect(await redis.pttl(counter)).toBeGreaterThan(59_000);
  });

  it('raises every limit by the factor', async () => {
    const limiter = new RateLimiter(redis, prefix, 10);
    for (let item = 0; item < 20; item++) await admit(limiter, 'ada', `item-${item}`);

    expect(await refusalOf(admit(limiter, 'ada', 'one too many'))).toMatchObject({ code: 'RATE_LIMITED' });
    expect(await admitted()).toHaveLength(20);
  });
});
