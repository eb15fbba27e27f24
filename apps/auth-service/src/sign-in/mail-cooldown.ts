import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/** One magic-link e-mail per address per window, shared by every replica through Redis. */
export class MailCooldown {
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
    private readonly windowMs = 60_000,
  ) {}

  /** Takes the address's slot; answers the seconds to wait when it is already taken. */
  async take(email: string): Promise<{ retryAfterSeconds: number } | undefined> {
    // Hashed, so Redis key names carry no e-mail addresses.
    const key = `${this.keyPrefix}:auth:mail-cooldown:${createHash('sha256').update(email).digest('base64url')}`;
    const taken = await this.redis.set(key, '1', 'PX', this.windowMs, 'NX');
    if (taken === 'OK') return undefined;
    const leftMs = await this.redis.pttl(key);
    return { retryAfterSeconds: Math.max(1, Math.ceil(leftMs / 1000)) };
  }
}
