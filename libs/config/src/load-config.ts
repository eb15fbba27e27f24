import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { z } from 'zod';

export class ConfigError extends Error {
  constructor(
    readonly variables: string[],
    detail: string,
  ) {
    super(`Invalid configuration: ${detail}`);
    this.name = 'ConfigError';
  }
}

export type Env = Record<string, string | undefined>;

const isProduction = (env: Env) => env.NODE_ENV === 'production';

const GENERATE_HINT = 'generate one with `openssl rand -hex 32`';
const MIN_SECRET_BYTES = 32;

/**
 * Secrets written in this repository (the local servers' and compose's former values, the system tests'):
 * anyone can read them, so production refuses them, and any change-me placeholder (the development
 * default, the Kubernetes example) with them.
 */
export const KNOWN_DEVELOPMENT_SECRETS: readonly string[] = ['S3RVER', 'spark', 'spark-secret', 'system-test-jwt-secret-0123456789'];
const CHANGE_ME = /change[\s_-]?me/i;
const isKnownValue = (value: string) => KNOWN_DEVELOPMENT_SECRETS.includes(value) || CHANGE_ME.test(value);
const knownValueMessage = `is a known value from the repository; ${GENERATE_HINT}`;

/**
 * A secret with a development default. In production there is no default (a missing secret stops the
 * process with a message naming the variable), and a known value or one under 32 bytes is refused.
 */
export const secret = (env: Env, devDefault: string) =>
  isProduction(env)
    ? z
        .string({ error: 'is required in production' })
        .refine((value) => !isKnownValue(value), knownValueMessage)
        .refine((value) => Buffer.byteLength(value) >= MIN_SECRET_BYTES, `must be at least ${MIN_SECRET_BYTES} bytes; ${GENERATE_HINT}`)
    : z.string().min(1).default(devDefault);

/** A secret whose absence turns its feature off (the model's key): set in production, it may not be a known value. */
export const optionalSecret = (env: Env) =>
  isProduction(env)
    ? z
        .string()
        .min(1)
        .refine((value) => !isKnownValue(value), knownValueMessage)
        .optional()
    : z.string().min(1).optional();

/** The public half of a credential (an access key id): required in production, and not the development one. */
export const credentialId = (env: Env, devDefault: string) =>
  isProduction(env)
    ? z
        .string({ error: 'is required in production' })
        .min(1)
        .refine((value) => value !== devDefault && !CHANGE_ME.test(value), 'is the development value')
    : z.string().min(1).default(devDefault);

const passwordOf = (url: string) => {
  try {
    return decodeURIComponent(new URL(url).password);
  } catch {
    return '';
  }
};

/** A URL of a backing service; unset in production means unset (the caller decides), and its password is no known value. */
export const serviceUrl = (env: Env, devDefault: string) =>
  isProduction(env)
    ? z.url({ error: 'is required in production' }).refine((value) => !isKnownValue(passwordOf(value)), `has a password that ${knownValueMessage}`)
    : z.url().default(devDefault);

const MAIL_SEAL_HINT = 'generate the pair as docs/operations.md ("Mail sealing keys") shows';
/** The development pair of the mail sealing keys: written here, so production refuses both halves. */
export const DEVELOPMENT_MAIL_SEAL_KEYS = {
  publicKey: 'MCowBQYDK2VuAyEAeTL7UBi2OhMIDvz6mF1sO7QG6bentYRsed2DthmX3mQ=',
  privateKey: 'MC4CAQAwBQYDK2VuBCIEIAgap6qv/ch22nhySoBBajj6b7uHoHTx6LHm9LuF+Cl2',
} as const;

/** An X25519 key from its base64 DER (SPKI for a public key, PKCS #8 for a private one), or undefined for anything else. */
export function x25519Key(base64: string, half: 'public' | 'private'): KeyObject | undefined {
  try {
    const der = Buffer.from(base64.trim(), 'base64');
    const key = half === 'public' ? createPublicKey({ key: der, format: 'der', type: 'spki' }) : createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
    return key.asymmetricKeyType === 'x25519' ? key : undefined;
  } catch {
    return undefined;
  }
}

const x25519KeySchema = (half: 'public' | 'private', refuseDevelopmentKey: boolean) =>
  z
    .string()
    .refine((value) => !refuseDevelopmentKey || value.trim() !== DEVELOPMENT_MAIL_SEAL_KEYS[`${half}Key`], `is the development key; ${MAIL_SEAL_HINT}`)
    .transform((value, context) => {
      const key = x25519Key(value, half);
      if (!key) context.addIssue({ code: 'custom', message: `must be an X25519 ${half} key, base64 DER; ${MAIL_SEAL_HINT}` });
      return key ?? z.NEVER;
    });

const privateKeyList = (refuseDevelopmentKey: boolean) =>
  z
    .string()
    .transform((list) => list.split(',').filter((key) => key.trim() !== ''))
    .pipe(z.array(x25519KeySchema('private', refuseDevelopmentKey)).min(1, `needs at least one key; ${MAIL_SEAL_HINT}`));

/**
 * The notifier's public key, which the services that queue secret-bearing mail seal it for. Required in production,
 * where the development key is refused: its private half is in this repository.
 */
export const mailSealPublicKey = (env: Env) =>
  isProduction(env)
    ? z.string({ error: 'is required in production' }).pipe(x25519KeySchema('public', true))
    : z.string().default(DEVELOPMENT_MAIL_SEAL_KEYS.publicKey).pipe(x25519KeySchema('public', false));

/**
 * The notifier's private keys, comma-separated, the one of the public key among them: a sealed job opens with the key
 * it was sealed for, so a retired key stays listed until the jobs sealed for it are sent.
 */
export const mailSealPrivateKeys = (env: Env) =>
  isProduction(env)
    ? z.string({ error: 'is required in production' }).pipe(privateKeyList(true))
    : z.string().default(DEVELOPMENT_MAIL_SEAL_KEYS.privateKey).pipe(privateKeyList(false));

/** Where a development stack serves the product. */
export const LOCAL_PUBLIC_URL = 'http://localhost:8080';
/** Hosts only the machine itself reaches: a production-mode stack there (compose, a local cluster) has no certificate. */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
const isHttpsOrLoopback = (value: string) => {
  const { protocol, hostname } = new URL(value);
  return protocol === 'https:' || (protocol === 'http:' && LOOPBACK_HOSTS.has(hostname));
};

/**
 * The address people open the product at. The refresh cookie's Secure flag, HSTS and every e-mailed link follow
 * it, so production has no default and takes only https: (plain http only on a loopback host).
 */
export const publicUrl = (env: Env) =>
  isProduction(env)
    ? z.url({ error: 'is required in production' }).refine(isHttpsOrLoopback, 'must be https: in production (http: only on localhost, 127.0.0.1 or [::1])')
    : z.url().default(LOCAL_PUBLIC_URL);

/** Parses `env` with the app's schema once, at boot; every error names its variable. */
export function loadConfig<S extends z.ZodObject>(build: (env: Env) => S, env: Env = process.env): z.infer<S> {
  const result = build(env).safeParse(env);
  if (result.success) return result.data;
  const variables = [...new Set(result.error.issues.map((issue) => String(issue.path[0])))];
  const detail = result.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; ');
  throw new ConfigError(variables, detail);
}
