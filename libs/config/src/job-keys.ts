import { createHash, createSecretKey, type KeyObject, randomBytes } from 'node:crypto';
import { type JobApp, type JobKeyPair, jobKeyPairs, jobKeyPairsOf, services } from '@spark/contracts';
import { z } from 'zod';
import { ConfigError, type Env } from './load-config';

/** Each (queue, producer) pair's keys, as `jobKeyName` names them; the first signs, any of them verifies. */
export type JobKeys = ReadonlyMap<string, readonly KeyObject[]>;

export const jobKeyName = ({ queue, producer }: JobKeyPair) => `${queue}/${producer}`;

const KEY_BYTES = 32;
const HINT = 'docs/operations.md ("Job signing keys") shows how to make them';

/** The development key of a pair: derived from its name, so anyone can compute it and production refuses it. */
export const developmentJobKey = (pair: JobKeyPair) =>
  createHash('sha256')
    .update(`spark development job key ${jobKeyName(pair)}`)
    .digest('hex');

const knownPairs = new Set(jobKeyPairs().map(jobKeyName));
const developmentKeys = new Set(jobKeyPairs().map(developmentJobKey));

/** `JOB_KEYS` written out: `<queue>/<producer>=<64 hex digits>`, comma-separated. */
export const formatJobKeys = (entries: readonly { pair: JobKeyPair; key: string }[]) => entries.map(({ pair, key }) => `${jobKeyName(pair)}=${key}`).join(',');

const DEVELOPMENT_JOB_KEYS = formatJobKeys(jobKeyPairs().map((pair) => ({ pair, key: developmentJobKey(pair) })));

const jobKeyList = (refuseDevelopmentKeys: boolean) =>
  z.string().transform((list, context): JobKeys => {
    const keys = new Map<string, KeyObject[]>();
    for (const entry of list.split(',').map((part) => part.trim())) {
      if (entry === '') continue;
      const [name = '', hex = ''] = entry.split('=');
      if (!knownPairs.has(name)) context.addIssue({ code: 'custom', message: `names no queue and producer of a signed job: ${name}; ${HINT}` });
      else if (!new RegExp(`^[0-9a-f]{${KEY_BYTES * 2}}$`).test(hex))
        context.addIssue({ code: 'custom', message: `${name} needs ${KEY_BYTES} random bytes in hex; ${HINT}` });
      else if (refuseDevelopmentKeys && developmentKeys.has(hex)) context.addIssue({ code: 'custom', message: `${name} is the development key; ${HINT}` });
      else keys.set(name, [...(keys.get(name) ?? []), createSecretKey(Buffer.from(hex, 'hex'))]);
    }
    return keys;
  });

/** Every pair's development key: what a development stack signs and verifies with when `JOB_KEYS` is unset. */
export const developmentJobKeys = (): JobKeys => jobKeyList(false).parse(DEVELOPMENT_JOB_KEYS);

/**
 * `JOB_KEYS`: the keys that sign jobs, one per queue and producer, held by that producer and that queue's consumer
 * alone. Several keys for one pair let it rotate: the first signs, every one verifies. Outside production every pair
 * has a development key unless set; in production each app must be given its own pairs (`assertJobKeysFor`).
 */
export const jobKeys = (env: Env) =>
  env.NODE_ENV === 'production' ? z.string().default('').pipe(jobKeyList(true)) : z.string().default(DEVELOPMENT_JOB_KEYS).pipe(jobKeyList(false));

/** Stops an app that lacks the key of a job it signs or runs, before it queues or refuses anything. */
export function assertJobKeysFor(app: JobApp, keys: JobKeys): void {
  const missing = jobKeyPairsOf(app)
    .map(jobKeyName)
    .filter((name) => !keys.has(name));
  if (missing.length > 0) throw new ConfigError(['JOB_KEYS'], `JOB_KEYS lacks ${missing.join(', ')} for ${app}; ${HINT}`);
}

/**
 * A fresh random key for every pair, as the `JOB_KEYS` of each app that holds any (`npm run job-keys`): a pair's key
 * appears in its producer's value and its consumer's, nowhere else.
 */
export function freshJobKeys(): { app: JobApp; value: string }[] {
  const keys = new Map(jobKeyPairs().map((pair) => [jobKeyName(pair), randomBytes(KEY_BYTES).toString('hex')]));
  return [...services, 'notifier' as const]
    .map((app) => ({ app, value: formatJobKeys(jobKeyPairsOf(app).map((pair) => ({ pair, key: keys.get(jobKeyName(pair)) ?? '' }))) }))
    .filter(({ value }) => value !== '');
}
