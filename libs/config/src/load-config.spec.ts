import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { ConfigError, DEVELOPMENT_MAIL_SEAL_KEYS, type Env, loadConfig } from './load-config';
import { authEnv, ditlEnv, gatewayEnv, investorEnv, notifierEnv, progressEnv } from './schemas';

const generated = () => randomBytes(32).toString('hex');
const mailSealKeys = () => {
  const { publicKey, privateKey } = generateKeyPairSync('x25519');
  return {
    publicKey: publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
    privateKey: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
  };
};
const productionMailSealKeys = mailSealKeys();

// Everything a production gateway, auth service and notifier need, each secret freshly generated.
const production = (overrides: Env = {}): Env => ({
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://spark:db-password-from-the-vault@db.internal:5432/spark',
  REDIS_URL: 'rediss://gateway:redis-password-from-the-vault@redis.internal:6380',
  S3_ENDPOINT: 'https://s3.eu-central-1.amazonaws.com',
  S3_ACCESS_KEY_ID: 'AKIAIOSFODNN7EXAMPLE',
  S3_SECRET_ACCESS_KEY: generated(),
  JWT_SECRET: generated(),
  PUBLIC_URL: 'https://spark.example.com',
  SMTP_URL: 'smtps://notifier:smtp-password-from-the-vault@smtp.internal:465',
  PAYMENT_URL_PIVOT: 'https://pay.example.com/pivot',
  PAYMENT_URL_ALIGNMENT: 'https://pay.example.com/alignment',
  PAYMENT_URL_EVOLUTION: 'https://pay.example.com/evolution',
  PAYMENT_URL_TRANSFORMATION: 'https://pay.example.com/transformation',
  MAIL_SEAL_PUBLIC_KEY: productionMailSealKeys.publicKey,
  MAIL_SEAL_PRIVATE_KEYS: productionMailSealKeys.privateKey,
  ...overrides,
});

const refusal = (build: (env: Env) => z.ZodObject, env: Env): ConfigError => {
  try {
    loadConfig(build, env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('the configuration was accepted');
};

describe('secrets in production', () => {
  it('accepts generated secrets', () => {
    expect(() => loadConfig(gatewayEnv, production())).not.toThrow();
  });

  it.each([
    ['the development default', 'development-only-jwt-secret-change-me'],
    ["docker-compose.yml's former fallback", 'compose-only-secret-change-me-0123456789'],
    ['the Kubernetes example', 'CHANGE_ME_AT_LEAST_32_RANDOM_CHARACTERS'],
    ["the system tests' secret", 'system-test-jwt-secret-0123456789'],
    ['any change-me placeholder', 'please-change-me-before-going-live-0123456789'],
  ])('refuses %s as JWT_SECRET, naming the variable', (_, value) => {
    for (const build of [gatewayEnv, authEnv]) {
      const error = refusal(build, production({ JWT_SECRET: value }));
      expect(error.variables).toEqual(['JWT_SECRET']);
      expect(error.message).toMatch(/JWT_SECRET .*known value.*openssl rand -hex 32/);
    }
  });

  it('refuses a secret under 32 bytes and accepts one of 32', () => {
    const error = refusal(gatewayEnv, production({ JWT_SECRET: 'x7Rq'.repeat(7) + 'abc' }));
    expect(error.variables).toEqual(['JWT_SECRET']);
    expect(error.message).toMatch(/JWT_SECRET must be at least 32 bytes/);
    expect(() => loadConfig(gatewayEnv, production({ JWT_SECRET: 'x7Rq'.repeat(8) }))).not.toThrow();
  });

  it("refuses the local S3 server's credentials, naming both variables", () => {
    const error = refusal(gatewayEnv, production({ S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' }));
    expect(error.variables).toEqual(['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY']);
  });

  it('refuses a service URL whose password is an example value', () => {
    const error = refusal(authEnv, production({ DATABASE_URL: 'postgres://spark_auth:CHANGE_ME@db.example.internal:5432/spark' }));
    expect(error.variables).toEqual(['DATABASE_URL']);
    expect(error.message).toMatch(/DATABASE_URL .*password/);
  });

  it('needs no database for the gateway, which never connects to one', () => {
    expect(loadConfig(gatewayEnv, production({ DATABASE_URL: undefined }))).not.toHaveProperty('DATABASE_URL');
  });

  it("refuses the example's placeholder for the model's key, which is optional (unset, the offline writers run)", () => {
    const builds: ((env: Env) => z.ZodObject)[] = [ditlEnv, progressEnv];
    for (const build of builds) {
      expect(refusal(build, production({ OPENAI_API_KEY: 'CHANGE_ME' })).variables).toEqual(['OPENAI_API_KEY']);
      expect(() => loadConfig(build, production({ OPENAI_API_KEY: `sk-${generated()}` }))).not.toThrow();
      expect(() => loadConfig(build, production())).not.toThrow();
    }
  });

  it('stops at a missing secret with a message naming it', () => {
    const error = refusal(gatewayEnv, production({ JWT_SECRET: undefined }));
    expect(error.variables).toEqual(['JWT_SECRET']);
    expect(error.message).toMatch(/JWT_SECRET is required in production/);
  });
});

describe('the mail sealing keys', () => {
  // The sign-in e-mail's link is sealed with the public key by the auth and progress services, a campaign's text by the
  // investor service; the notifier opens them.
  const sealing: ((env: Env) => z.ZodObject)[] = [authEnv, progressEnv, investorEnv];

  it('are required in production, each stop naming its variable', () => {
    for (const build of sealing) expect(refusal(build, production({ MAIL_SEAL_PUBLIC_KEY: undefined })).variables).toEqual(['MAIL_SEAL_PUBLIC_KEY']);
    const error = refusal(notifierEnv, production({ MAIL_SEAL_PRIVATE_KEYS: undefined }));
    expect(error.variables).toEqual(['MAIL_SEAL_PRIVATE_KEYS']);
    expect(error.message).toMatch(/MAIL_SEAL_PRIVATE_KEYS is required in production/);
  });

  it('refuse the development pair in production, whose private half is in the repository', () => {
    for (const build of sealing) {
      const error = refusal(build, production({ MAIL_SEAL_PUBLIC_KEY: DEVELOPMENT_MAIL_SEAL_KEYS.publicKey }));
      expect(error.message).toMatch(/MAIL_SEAL_PUBLIC_KEY is the development key/);
    }
    const listed = `${productionMailSealKeys.privateKey},${DEVELOPMENT_MAIL_SEAL_KEYS.privateKey}`;
    expect(refusal(notifierEnv, production({ MAIL_SEAL_PRIVATE_KEYS: listed })).message).toMatch(/MAIL_SEAL_PRIVATE_KEYS.* is the development key/);
  });

  it('refuse what is not an X25519 key of the right half', () => {
    const ed25519 = generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
    for (const value of [ed25519, productionMailSealKeys.privateKey, generated(), '']) {
      expect(refusal(authEnv, production({ MAIL_SEAL_PUBLIC_KEY: value })).message).toMatch(/MAIL_SEAL_PUBLIC_KEY must be an X25519 public key/);
    }
    expect(refusal(notifierEnv, production({ MAIL_SEAL_PRIVATE_KEYS: productionMailSealKeys.publicKey })).message).toMatch(/must be an X25519 private key/);
    expect(refusal(notifierEnv, production({ MAIL_SEAL_PRIVATE_KEYS: ' , ' })).message).toMatch(/needs at least one key/);
  });

  it('take every listed private key, the current one first, so jobs sealed for a retired key still open', () => {
    const retired = mailSealKeys();
    const config = loadConfig(notifierEnv, production({ MAIL_SEAL_PRIVATE_KEYS: `${productionMailSealKeys.privateKey}, ${retired.privateKey}` }));
    expect(config.MAIL_SEAL_PRIVATE_KEYS.map((key) => key.export({ format: 'der', type: 'pkcs8' }).toString('base64'))).toEqual([
      productionMailSealKeys.privateKey,
      retired.privateKey,
    ]);
  });

  it('default to the development pair outside production', () => {
    expect(loadConfig(authEnv, {}).MAIL_SEAL_PUBLIC_KEY.export({ format: 'der', type: 'spki' }).toString('base64')).toBe(DEVELOPMENT_MAIL_SEAL_KEYS.publicKey);
    expect(loadConfig(notifierEnv, {}).MAIL_SEAL_PRIVATE_KEYS).toHaveLength(1);
  });
});

describe('PUBLIC_URL in production', () => {
  // It decides the refresh cookie's Secure flag and HSTS, and every e-mailed link starts with it.
  const usingPublicUrl: ((env: Env) => z.ZodObject)[] = [gatewayEnv, authEnv, notifierEnv];

  it('stops at a missing PUBLIC_URL with a message naming it, instead of falling back to localhost', () => {
    for (const build of usingPublicUrl) {
      const error = refusal(build, production({ PUBLIC_URL: undefined }));
      expect(error.variables).toEqual(['PUBLIC_URL']);
      expect(error.message).toMatch(/PUBLIC_URL is required in production/);
    }
  });

  it.each(['http://spark.example.com', 'http://10.0.0.7:8080', 'ftp://spark.example.com'])('refuses %s, which is not https:', (value) => {
    for (const build of usingPublicUrl) {
      const error = refusal(build, production({ PUBLIC_URL: value }));
      expect(error.variables).toEqual(['PUBLIC_URL']);
      expect(error.message).toMatch(/PUBLIC_URL must be https:/);
    }
  });

  it.each(['https://spark.example.com', 'http://localhost:8080', 'http://127.0.0.1:8080', 'http://[::1]:8080'])(
    'accepts %s (plain http only on an address nobody but the machine itself reaches, as compose and the local cluster run)',
    (value) => {
      for (const build of usingPublicUrl) expect(loadConfig(build, production({ PUBLIC_URL: value })).PUBLIC_URL).toBe(value);
    },
  );

  it('still defaults to the local address in development', () => {
    expect(loadConfig(gatewayEnv, {}).PUBLIC_URL).toBe('http://localhost:8080');
  });
});

describe('secrets in development', () => {
  it('fall back to the local defaults, which production refuses', () => {
    const config = loadConfig(gatewayEnv, {});
    expect(config.JWT_SECRET).toBe('development-only-jwt-secret-change-me');
    expect(config.S3_SECRET_ACCESS_KEY).toBe('S3RVER');
    expect(refusal(gatewayEnv, production({ JWT_SECRET: config.JWT_SECRET, S3_SECRET_ACCESS_KEY: config.S3_SECRET_ACCESS_KEY })).variables).toEqual([
      'JWT_SECRET',
      'S3_SECRET_ACCESS_KEY',
    ]);
  });
});
