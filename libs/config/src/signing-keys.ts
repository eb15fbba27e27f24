import { createHash, createHmac, createSecretKey, type KeyObject, randomBytes, timingSafeEqual } from 'node:crypto';
import { services, type SigningApp, type SigningKeyPair, signingKeyName, signingKeyPairs, signingKeyPairsOf } from '@spark/contracts';
import { z } from 'zod';
import { ConfigError, type Env } from './load-config';

/** Each pair's keys, by `signingKeyName`; the first signs, any of them verifies. */
export type SigningKeys = ReadonlyMap<string, readonly KeyObject[]>;

const KEY_BYTES = 32;
const HINT = 'docs/operations.md ("Signing keys") shows how to make them';

/** The development key of a pair: derived from its name, so anyone can compute it and production refuses it. */
export const developmentSigningKey = (pair: SigningKeyPair) =>
  createHash('sha256')
    .update(`spark development signing key ${signingKeyName(pair)}`)
    .digest('hex');

const knownPairs = new Set(signingKeyPairs().map(signingKeyName));
const developmentKeys = new Set(signingKeyPairs().map(developmentSigningKey));

/** `SIGNING_KEYS` written out: `<pair>=<64 hex digits>`, comma-separated. */
export const formatSigningKeys = (entries: readonly { pair: SigningKeyPair; key: string }[]) =>
  entries.map(({ pair, key }) => `${signingKeyName(pair)}=${key}`).join(',');

const DEVELOPMENT_SIGNING_KEYS = formatSigningKeys(signingKeyPairs().map((pair) => ({ pair, key: developmentSigningKey(pair) })));

const signingKeyList = (refuseDevelopmentKeys: boolean) =>
  z.string().transform((list, context): SigningKeys => {
    const keys = new Map<string, KeyObject[]>();
    for (const entry of list.split(',').map((part) => part.trim())) {
      if (entry === '') continue;
      const [name = '', hex = ''] = entry.split('=');
      if (!knownPairs.has(name)) context.addIssue({ code: 'custom', message: `names nothing that is signed: ${name}; ${HINT}` });
      else if (!new RegExp(`^[0-9a-f]{${KEY_BYTES * 2}}$`).test(hex))
        context.addIssue({ code: 'custom', message: `${name} needs ${KEY_BYTES} random bytes in hex; ${HINT}` });
      else if (refuseDevelopmentKeys && developmentKeys.has(hex)) context.addIssue({ code: 'custom', message: `${name} is the development key; ${HINT}` });
      else keys.set(name, [...(keys.get(name) ?? []), createSecretKey(Buffer.from(hex, 'hex'))]);
    }
    return keys;
  });

/** Every pair's development key: what a development stack signs and verifies with when `SIGNING_KEYS` is unset. */
export const developmentSigningKeys = (): SigningKeys => signingKeyList(false).parse(DEVELOPMENT_SIGNING_KEYS);

/**
 * `SIGNING_KEYS`: the keys that sign jobs (one per queue and producer) and bus requests (one per service and caller),
 * each held by its two ends alone. Several keys for one pair let it rotate: the first signs, every one verifies.
 * Outside production every pair has a development key unless set; in production each app must be given its own pairs
 * (`assertSigningKeysFor`).
 */
export const signingKeys = (env: Env) =>
  env.NODE_ENV === 'production' ? z.string().default('').pipe(signingKeyList(true)) : z.string().default(DEVELOPMENT_SIGNING_KEYS).pipe(signingKeyList(false));

// HMAC-SHA256 rather than a public-key signature: each key is shared by the pair's two ends only, and the lead path
// signs several messages per lead (the comparison: docs/decisions.md).
const hmacOf = (key: KeyObject, header: string, body: string) => createHmac('sha256', key).update(header).update(body).digest();

/**
 * The signature of a message (a header naming what it is and where it goes, and its body) with the pair's signing
 * key, in base64url; undefined when this app holds no key of the pair.
 */
export function pairSignature(keys: SigningKeys, pairName: string, header: string, body: string): string | undefined {
  const [key] = keys.get(pairName) ?? [];
  return key && hmacOf(key, header, body).toString('base64url');
}

/** Whether `signature` signs the message with any key of the pair (rotation), compared in constant time. */
export function isPairSignature(keys: SigningKeys, pairName: string, header: string, body: string, signature: string): boolean {
  const given = Buffer.from(signature, 'base64url');
  return (keys.get(pairName) ?? []).some((key) => {
    const expected = hmacOf(key, header, body);
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
}

/** Stops an app that lacks the key of something it signs or checks, before it sends or refuses anything. */
export function assertSigningKeysFor(app: SigningApp, keys: SigningKeys): void {
  const missing = signingKeyPairsOf(app)
    .map(signingKeyName)
    .filter((name) => !keys.has(name));
  if (missing.length > 0) throw new ConfigError(['SIGNING_KEYS'], `SIGNING_KEYS lacks ${missing.join(', ')} for ${app}; ${HINT}`);
}

/**
 * A fresh random key for every pair, as the `SIGNING_KEYS` of each app that holds any (`npm run signing-keys`): a pair's
 * key appears in the values of its two ends, nowhere else.
 */
export function freshSigningKeys(): { app: SigningApp; value: string }[] {
  const keys = new Map(signingKeyPairs().map((pair) => [signingKeyName(pair), randomBytes(KEY_BYTES).toString('hex')]));
  return ['gateway' as const, ...services, 'notifier' as const]
    .map((app) => ({ app, value: formatSigningKeys(signingKeyPairsOf(app).map((pair) => ({ pair, key: keys.get(signingKeyName(pair)) ?? '' }))) }))
    .filter(({ value }) => value !== '');
}
