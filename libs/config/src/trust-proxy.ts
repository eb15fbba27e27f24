import { isIP } from 'node:net';
import { z } from 'zod';

/** Fastify's `trustProxy`: no proxy, the nearest N hops, or the proxies at these addresses. */
export type TrustedProxies = false | number | string[];

// Names @fastify/proxy-addr understands for the private ranges a cluster's ingress usually sits in.
const namedRanges = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrRange(entry: string): boolean {
  if (namedRanges.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * `TRUST_PROXY`: whose `X-Forwarded-For` the gateway believes. Empty or unset trusts nobody (the
 * socket's peer is the client); a hop count such as `1` trusts that many proxies in front; a
 * comma-separated list of addresses or CIDR ranges trusts exactly those peers.
 */
export const trustProxySchema = z
  .string()
  .optional()
  .transform((raw, context): TrustedProxies => {
    const value = raw?.trim() ?? '';
    if (value === '') return false;
    if (/^\d+$/.test(value)) {
      const hops = Number(value);
      if (hops <= 32) return hops === 0 ? false : hops;
    }
    const entries = value.split(',').map((entry) => entry.trim());
    const wrong = entries.filter((entry) => !isAddressOrRange(entry));
    if (wrong.length === 0) return entries;
    context.addIssue({
      code: 'custom',
      message: `must be empty (trust no proxy), a hop count such as 1, or a comma-separated list of IP addresses or CIDR ranges such as 10.0.0.0/8; not ${wrong.map((entry) => JSON.stringify(entry)).join(', ')}`,
    });
    return z.NEVER;
  });
