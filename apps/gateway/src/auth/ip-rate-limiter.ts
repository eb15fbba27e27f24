import { DomainError } from '@spark/messaging';
import type { Redis } from 'ioredis';

export interface IpLimit {
  /** Names the counter, so each limited route counts on its own. */
  name: string;
  max: number;
  windowMs: number;
}

/** A fixed-window counter per client IP in Redis, shared by every gateway replica. */
export class IpRateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
  ) {}

  /** Counts one request; throws RATE_LIMITED (429 with Retry-After) over the limit. */
  async hit(ip: string, limit: IpLimit): Promise<void> {
    const key = `${this.keyPrefix}:gateway:ip-limit:${limit.name}:${ip}`;
    // The expiry is set with the first hit (NX) in the same round trip, so no key outlives its window.
    const replies = await this.redis.multi().incr(key).pexpire(key, limit.windowMs, 'NX').pttl(key).exec();
    const count = Number(replies?.[0]?.[1] ?? 0);
    if (count <= limit.max) return;
    const retryAfterSeconds = Math.max(1, Math.ceil(Number(replies?.[2]?.[1] ?? limit.windowMs) / 1000));
    throw new DomainError('RATE_LIMITED', `Too many requests. Please try again in ${retryAfterSeconds} seconds.`, { retryAfterSeconds });
  }
}
