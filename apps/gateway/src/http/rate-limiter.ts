import { hash } from 'node:crypto';
import { waitPhrase } from '@spark/contracts';
import { DomainError } from '@spark/errors';
import type { Redis } from 'ioredis';

export interface RateLimit {
  /** Names the counter, so each limit counts on its own. */
  name: string;
  max: number;
  windowMs: number;
}

/** One request counted against a limit, for one subject: a client IP, a mailbox, an access code. */
export interface RateLimitHit {
  limit: RateLimit;
  subject: string;
}

const digest = (value: string) => hash('sha256', value, 'base64url');

/**
 * The subject of an e-mail address: its mailbox, so `ada+1@` and `ada+2@` (one inbox) count together,
 * hashed so no address becomes a Redis key name. Expects an address already trimmed and lower-cased.
 */
export const mailboxSubject = (email: string) => digest(email.replace(/\+[^@]*@/, '@'));

/** The subject of a secret a caller presents (an access code): hashed, so the key does not hold it. */
export const secretSubject = (secret: string) => digest(secret);

// Per key: the count after this hit and the window's remaining ms. The expiry is set with the first hit (NX), in the
// same atomic call, so no key outlives its window.
const COUNT_HITS = `
local replies = {}
for index, key in ipairs(KEYS) do
  replies[#replies + 1] = redis.call('INCR', key)
  redis.call('PEXPIRE', key, ARGV[index], 'NX')
  replies[#replies + 1] = redis.call('PTTL', key)
end
return replies`;

/**
 * Fixed-window counters in Redis, shared by every gateway replica. `factor` raises every limit at once
 * (`RATE_LIMIT_FACTOR`, for load tests or a crowd behind one address).
 */
export class RateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
    private readonly factor = 1,
  ) {}

  /**
   * Counts one request against every limit (one script call, which the connection's automatic pipelining sends
   * in one write with the other requests' of the same turn of the event loop), then throws RATE_LIMITED (429
   * with Retry-After: the longest wait among the exceeded limits) when any is over.
   */
  async hit(...hits: RateLimitHit[]): Promise<void> {
    const keys = hits.map(({ limit, subject }) => `${this.keyPrefix}:gateway:rate-limit:${limit.name}:${subject}`);
    const replies = (await this.redis.eval(COUNT_HITS, keys.length, ...keys, ...hits.map(({ limit }) => limit.windowMs))) as number[];
    let waitMs = 0;
    hits.forEach(({ limit }, index) => {
      const count = replies[index * 2] ?? 0;
      if (count > limit.max * this.factor) waitMs = Math.max(waitMs, replies[index * 2 + 1] ?? limit.windowMs);
    });
    if (waitMs === 0) return;
    const retryAfterSeconds = Math.max(1, Math.ceil(waitMs / 1000));
    throw new DomainError('RATE_LIMITED', `Too many requests. Please try again in ${waitPhrase(retryAfterSeconds)}.`, { retryAfterSeconds });
  }
}
