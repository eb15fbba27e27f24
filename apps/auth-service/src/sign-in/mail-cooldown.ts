import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

// After each sign-in e-mail to an address the next waits this long, doubled per e-mail up to the longest; the e-mails
// are counted for a day from the first, then the waits start again.
const FIRST_WAIT_MS = 60_000;
const LONGEST_WAIT_MS = 60 * 60_000;
const COUNTED_FOR_MS = 24 * 60 * 60_000;

// KEYS: the address's slot and its count of e-mails. A held slot answers the ms left. A free one counts one e-mail
// more (the count's expiry set with its first, in the same atomic call) and is held for the wait that count earns.
const TAKE_SLOT = `
local left = redis.call('PTTL', KEYS[1])
if left > 0 then return left end
local sent = redis.call('INCR', KEYS[2])
redis.call('PEXPIRE', KEYS[2], ARGV[3], 'NX')
local wait = math.min(tonumber(ARGV[1]) * 2 ^ (sent - 1), tonumber(ARGV[2]))
redis.call('SET', KEYS[1], '1', 'PX', math.floor(wait))
return 0`;

/** The address's Redis keys, hashed so key names carry no e-mail addresses. */
export function cooldownKeys(keyPrefix: string, email: string) {
  const address = createHash('sha256').update(email).digest('base64url');
  return { slot: `${keyPrefix}:auth:mail-cooldown:${address}`, sent: `${keyPrefix}:auth:mails-sent:${address}` };
}

/**
 * Sign-in e-mails to one address, spaced further apart with each one (shared by every replica through Redis). A
 * person retrying a typo waits a minute. A script asking for someone's link every minute would otherwise fill their
 * inbox all day and void each link within a minute of sending it; now it gets a handful of e-mails an hour at first
 * and one an hour after that, and each link lives at least until the next may be sent.
 */
export class MailCooldown {
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
  ) {}

  /** Takes the address's slot for one e-mail; answers the seconds to wait when it is held. */
  async take(email: string): Promise<{ retryAfterSeconds: number } | undefined> {
    const { slot, sent } = cooldownKeys(this.keyPrefix, email);
    const leftMs = Number(await this.redis.eval(TAKE_SLOT, 2, slot, sent, FIRST_WAIT_MS, LONGEST_WAIT_MS, COUNTED_FOR_MS));
    return leftMs > 0 ? { retryAfterSeconds: Math.max(1, Math.ceil(leftMs / 1000)) } : undefined;
  }
}
