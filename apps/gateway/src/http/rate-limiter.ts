import { hash } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import { waitPhrase } from '@spark/contracts';
import { DomainError } from '@spark/errors';
import type { BusAdmission, KeyedRedisCommand } from '@spark/messaging';
import type { Redis } from 'ioredis';
import { redisUnavailable } from './redis-unavailable';

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

// Gmail delivers every dotted spelling of a local part, at either domain, to the one inbox.
const GMAIL_DOMAINS = new Set(['gmail.com', 'googlemail.com']);

/**
 * The subject of an e-mail address: its mailbox, so `ada+1@` and `ada+2@` (one inbox) count together, as do
 * `a.da@gmail.com` and `ada@googlemail.com`; hashed so no address becomes a Redis key name. Expects an address
 * already trimmed and lower-cased.
 */
export function mailboxSubject(email: string): string {
  const at = email.lastIndexOf('@');
  const local = email.slice(0, at).replace(/\+.*$/, '');
  const domain = email.slice(at + 1);
  return digest(GMAIL_DOMAINS.has(domain) ? `${local.replaceAll('.', '')}@gmail.com` : `${local}@${domain}`);
}

/** The two 16-bit groups a dotted IPv4 address (or an IPv6 address's dotted tail) stands for. */
const ipv4Groups = (dotted: string) => {
  const [a = 0, b = 0, c = 0, d = 0] = dotted.split('.').map(Number);
  return [(a << 8) | b, (c << 8) | d];
};

/** The eight 16-bit groups of a valid IPv6 address: `::` expanded, a dotted tail read as two groups. */
function ipv6Groups(address: string): number[] {
  const groupsOf = (text: string) => (text ? text.split(':').flatMap((group) => (group.includes('.') ? ipv4Groups(group) : [parseInt(group, 16)])) : []);
  const [head = '', tail] = address.split('::');
  const before = groupsOf(head);
  const after = tail === undefined ? [] : groupsOf(tail);
  return [...before, ...Array<number>(8 - before.length - after.length).fill(0), ...after];
}

/** A client address as its IPv4 octets or IPv6 groups; an IPv4-mapped IPv6 address is its IPv4 address. */
function clientAddress(ip: string): { octets: number[] } | { groups: number[] } | undefined {
  const [address = ip] = ip.split('%');
  if (isIPv4(address)) return { octets: address.split('.').map(Number) };
  if (!isIPv6(address)) return undefined;
  const groups = ipv6Groups(address);
  const [mappedHigh = 0, mappedLow = 0] = groups.slice(6);
  if (groups.slice(0, 6).join(':') === '0:0:0:0:0:65535') return { octets: [mappedHigh >> 8, mappedHigh & 255, mappedLow >> 8, mappedLow & 255] };
  return { groups };
}

const ipv6Network = (groups: number[], prefixGroups: number) =>
  `${groups
    .slice(0, prefixGroups)
    .map((group) => group.toString(16))
    .join(':')}::/${prefixGroups * 16}`;

/**
 * The subject of a client address. An IPv6 client counts by its /64: a provider gives each subscriber a whole /64
 * at least, so counting each address would let one machine rotate through billions of them. An IPv4-mapped address
 * (`::ffff:192.0.2.1`, how a dual-stack socket or a proxy may write an IPv4 client) is that IPv4 address; an IPv4
 * address, or anything that is not an address, is kept as it is.
 */
export function ipSubject(ip: string): string {
  const address = clientAddress(ip);
  if (!address) return ip;
  return 'octets' in address ? address.octets.join('.') : ipv6Network(address.groups, 4);
}

/**
 * The subject of the network around a client address: its IPv6 /48 (a site's allocation, what a tunnel broker hands
 * anyone for free with 65 536 /64s to rotate through, or part of a mobile carrier's shared pool) or its IPv4 /24.
 * For limits on work that reaches people outside the product, which one sender must not multiply by rotating
 * through the addresses of one allocation.
 */
export function networkSubject(ip: string): string {
  const address = clientAddress(ip);
  if (!address) return ip;
  return 'octets' in address ? `${address.octets.slice(0, 3).join('.')}.0/24` : ipv6Network(address.groups, 3);
}

/** The subject of a secret a caller presents (an access code): hashed, so the key does not hold it. */
export const secretSubject = (secret: string) => digest(secret);

// KEYS: one counter per hit. ARGV: each counter's window (ms) and maximum; then, if any, the command to run when every
// count is within its maximum: its name, its key and its other arguments. That key is not declared: Redis asks read
// access of a script's declared keys, and the gateway may only write to the request streams (deploy/redis/users.acl);
// the command itself is checked as if sent alone.
// Answers 0 when every count is within its maximum, else the longest remaining ms of the exceeded windows. Counting
// stops at the first exceeded limit: a later counter is keyed on what the caller sends (an e-mail address, a code),
// lives its whole window, and one per refused request would let a single client fill Redis. The later counters are
// then only read, for their waits. A window starts with its counter's first hit, in the same atomic call; a counter
// found without one gets one when it is counted, so no counter outlives its window.
const COUNT_HITS = `
local waitMs = 0
for index, key in ipairs(KEYS) do
  local window = ARGV[index * 2 - 1]
  local max = tonumber(ARGV[index * 2])
  if waitMs > 0 then
    if tonumber(redis.call('GET', key) or '0') >= max then waitMs = math.max(waitMs, redis.call('PTTL', key)) end
  else
    local count = redis.call('INCR', key)
    if count == 1 then redis.call('PEXPIRE', key, window) end
    if count > max then
      local leftMs = redis.call('PTTL', key)
      if leftMs < 0 then
        redis.call('PEXPIRE', key, window)
        leftMs = tonumber(window)
      end
      waitMs = math.max(leftMs, 1)
    end
  end
end
if waitMs == 0 and #ARGV > #KEYS * 2 then
  redis.call(unpack(ARGV, #KEYS * 2 + 1))
end
return waitMs`;

const rateLimited = (waitMs: number) => {
  const retryAfterSeconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new DomainError('RATE_LIMITED', `Too many requests. Please try again in ${waitPhrase(retryAfterSeconds)}.`, { retryAfterSeconds });
};

/** The script's name on each connection: ioredis sends its SHA, and its text only once per connection. */
const COUNT_HITS_COMMAND = 'sparkCountHits';
type CountHits = (numberOfKeys: number, ...keysAndArgs: (string | number)[]) => Promise<number>;

/**
 * Fixed-window counters in Redis, shared by every gateway replica. `factor` raises every limit at once
 * (`RATE_LIMIT_FACTOR`, for load tests or a crowd behind one address).
 */
export class RateLimiter {
  private readonly countHits: CountHits;

  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
    private readonly factor = 1,
  ) {
    redis.defineCommand(COUNT_HITS_COMMAND, { lua: COUNT_HITS });
    const defined = (redis as unknown as Record<typeof COUNT_HITS_COMMAND, CountHits>)[COUNT_HITS_COMMAND];
    this.countHits = defined.bind(redis);
  }

  /**
   * Counts one request against every limit (one script call, which the connection's automatic pipelining sends
   * in one write with the other requests' of the same turn of the event loop), then throws RATE_LIMITED (429
   * with Retry-After: the longest wait among the exceeded limits) when any is over, and SERVICE_UNAVAILABLE when Redis does not answer:
   * uncounted, the request is not let through. The limits on who asks (their address, their account) come first: a
   * request they refuse is not counted against the later ones, keyed on what it sends.
   */
  hit(...hits: RateLimitHit[]): Promise<void> {
    return this.count(hits).catch(redisUnavailable);
  }

  /** The same limits as a bus request's admission: counted, and the request added only within them, in one call. */
  admission(...hits: RateLimitHit[]): BusAdmission {
    return { runIfAdmitted: (command) => this.count(hits, command) };
  }

  /**
   * For a limit on failures: refuses (RATE_LIMITED) once `hit` was counted its maximum in its window, counting nothing
   * itself. The caller counts a request with `hit` only once it has failed, so requests that succeed never use it up.
   */
  async refuseIfSpent({ limit, subject }: RateLimitHit): Promise<void> {
    const key = this.keyOf(limit, subject);
    const answers = await this.redis.multi().get(key).pttl(key).exec().catch(redisUnavailable);
    const [[, count] = [], [, leftMs] = []] = answers ?? [];
    if (Number(count ?? 0) < limit.max * this.factor) return;
    throw rateLimited(Math.max(Number(leftMs), 1));
  }

  private keyOf(limit: RateLimit, subject: string): string {
    return `${this.keyPrefix}:gateway:rate-limit:${limit.name}:${subject}`;
  }

  private async count(hits: RateLimitHit[], command?: KeyedRedisCommand): Promise<void> {
    const keys = hits.map(({ limit, subject }) => this.keyOf(limit, subject));
    const limits = hits.flatMap(({ limit }) => [limit.windowMs, limit.max * this.factor]);
    const waitMs = await this.countHits(keys.length, ...keys, ...limits, ...(command ? [command.name, command.key, ...command.args] : []));
    if (waitMs > 0) throw rateLimited(waitMs);
  }
}
