import { z } from 'zod';
import { credentialId, type Env, LOCAL_PUBLIC_URL, mailSealPrivateKeys, mailSealPublicKey, optionalSecret, publicUrl, secret, serviceUrl } from './load-config';
import { signingKeys } from './signing-keys';
import { trustProxySchema } from './trust-proxy';

const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);

/** What every process needs: where PostgreSQL and Redis are, and how to log. */
export const baseEnv = (env: Env) =>
  z.object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    // JSON lines for log collectors; `pretty` is one readable line each, for a developer (`npm start` sets it).
    LOG_FORMAT: z.enum(['json', 'pretty']).default('json'),
    DATABASE_URL: serviceUrl(env, 'postgres://postgres@127.0.0.1:5432/spark'),
    REDIS_URL: serviceUrl(env, 'redis://127.0.0.1:6379'),
    // Namespaces every stream, reply list and queue key, so several stacks can share one Redis.
    BUS_PREFIX: z
      .string()
      .regex(/^[a-z0-9_-]+$/)
      .default('spark'),
    BUS_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(5000),
  });

/** `npm run migrate` (the Job spark-migrate): the database only, so it is given no Redis credential it would not use. */
export const migrateEnv = (env: Env) => baseEnv(env).pick({ DATABASE_URL: true });

/** S3-compatible storage; the defaults are the local s3rver that `npm start` runs. */
export const storageEnv = (env: Env) =>
  z.object({
    S3_ENDPOINT: serviceUrl(env, 'http://127.0.0.1:4569'),
    S3_REGION: z.string().default('us-east-1'),
    S3_BUCKET: z.string().default('sparks'),
    S3_LOG_BUCKET: z.string().default('log'),
    S3_ACCESS_KEY_ID: credentialId(env, 'S3RVER'),
    S3_SECRET_ACCESS_KEY: secret(env, 'S3RVER'),
  });

export const serviceEnv = (env: Env) =>
  baseEnv(env).extend({
    HEALTH_PORT: port(0),
    // false: a separate step migrates (`npm run migrate`, the Kubernetes Job); the process waits, not ready, until then.
    RUN_MIGRATIONS: z.stringbool().default(true),
    OUTBOX_POLL_MS: z.coerce.number().int().min(10).default(1000),
    // How often each outbox checks its dispatched jobs still exist in Redis until they finish.
    OUTBOX_RECONCILE_MS: z.coerce.number().int().min(100).default(60_000),
    // The keys of the jobs and bus requests this app sends or checks: nothing unsigned by its sender runs.
    SIGNING_KEYS: signingKeys(env),
  });

/**
 * /donate: the payment page of each commitment level, and where the deck and its preview are stored.
 * Production must name real payment pages; elsewhere every level points back at /donate's own
 * commitment section, so a development stack never links to a payment page that does not exist.
 */
export const investorPageEnv = (env: Env) => {
  const localPlaceholder = `${(env.PUBLIC_URL ?? LOCAL_PUBLIC_URL).replace(/\/$/, '')}/donate#commitment`;
  return z.object({
    PAYMENT_URL_PIVOT: serviceUrl(env, localPlaceholder),
    PAYMENT_URL_ALIGNMENT: serviceUrl(env, localPlaceholder),
    PAYMENT_URL_EVOLUTION: serviceUrl(env, localPlaceholder),
    PAYMENT_URL_TRANSFORMATION: serviceUrl(env, localPlaceholder),
    INVESTOR_DECK_KEY: z.string().min(1).default('investor/spark-deck.pdf'),
    INVESTOR_DECK_PREVIEW_KEY: z.string().min(1).default('investor/spark-deck-preview.pdf'),
  });
};

/**
 * Where a browser's push subscription may point: the push services of Chrome, Firefox, Safari and Edge. The notifier
 * posts to that address, so any other is refused, by the progress-service when the subscription is stored and by the
 * notifier before it sends; both must read the same list (a comma-separated list of origins; `*.` matches subdomains).
 */
const pushServiceOrigins = z
  .string()
  .default('https://fcm.googleapis.com,https://updates.push.services.mozilla.com,https://web.push.apple.com,https://*.notify.windows.com')
  .transform((list) =>
    list
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
  );

/** Web Push's VAPID key pair (`npx web-push generate-vapid-keys`); without it reminders go by e-mail only. */
export const vapidEnv = z.object({
  VAPID_PUBLIC_KEY: z.string().min(1).optional(),
  // Who the push services may contact about this sender: a mailto: or https: address.
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:|https:)/)
    .default('mailto:hello@spark.local'),
});

/** The gateway, which faces the internet, never connects to PostgreSQL, so it is given no database credential. */
export const gatewayEnv = (env: Env) =>
  baseEnv(env)
    .omit({ DATABASE_URL: true })
    .extend({
      PORT: port(8080),
      HOST: z.string().default('0.0.0.0'),
      PUBLIC_URL: publicUrl(env),
      JWT_SECRET: secret(env, 'development-only-jwt-secret-change-me'),
      // The keys it signs its bus requests with: a service runs only what its sender signed.
      SIGNING_KEYS: signingKeys(env),
      // The built SPA; empty disables static serving (API-only gateway).
      WEB_DIST: z.string().default(''),
      // Multiplies every rate limit of the gateway: for load tests, or a crowd that shares one address.
      RATE_LIMIT_FACTOR: z.coerce.number().min(1).max(1_000_000).default(1),
      TRUST_PROXY: trustProxySchema,
      // The internal port: health, Prometheus metrics and the OpenAPI document; 0 serves none of them.
      HEALTH_PORT: port(0),
      // A whole request may take this long (a 100 MB video over a slow phone link); a connection that
      // sends or receives nothing for HTTP_IDLE_TIMEOUT_MS is closed, whatever it was doing.
      HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1000).max(3_600_000).default(600_000),
      HTTP_IDLE_TIMEOUT_MS: z.coerce.number().int().min(500).max(600_000).default(30_000),
      // The request line and headers must arrive within this: headers sent a trickle at a time are an attack.
      HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(500).max(120_000).default(15_000),
      // Uploads in flight at once per signed-in user (all replicas together), and the memory the uploads in
      // flight on one gateway process may hold (each counts twice its declared size, being read whole; an admin's deck is up to 30 MB).
      UPLOADS_PER_USER: z.coerce.number().int().min(1).max(50).default(2),
      UPLOAD_MEMORY_MB: z.coerce.number().int().min(64).max(16_384).default(192),
      VAPID_PUBLIC_KEY: vapidEnv.shape.VAPID_PUBLIC_KEY,
    })
    // The gateway signs spark uploads and links, and stores decks and log images.
    .extend(storageEnv(env).shape)
    .extend(investorPageEnv(env).shape);

export const notifierEnv = (env: Env) =>
  serviceEnv(env).extend({
    SMTP_URL: serviceUrl(env, 'smtp://127.0.0.1:1025'),
    MAIL_FROM: z.string().default('Spark <hello@spark.local>'),
    LEAD_ALERT_EMAIL: z.email().default('alerts@spark.local'),
    // New-lead alerts sent one by one each hour, whatever the networks they come from; the rest go in one digest.
    LEAD_ALERTS_PER_HOUR: z.coerce.number().int().min(1).max(1_000_000).default(30),
    PUBLIC_URL: publicUrl(env),
    NOTIFIER_CONCURRENCY: z.coerce.number().int().min(1).max(200).default(10),
    // How long a mail job's lock lives without renewal: a dead notifier's jobs are taken over after about this long.
    NOTIFIER_LOCK_MS: z.coerce.number().int().min(500).default(30_000),
    // A failed e-mail or push is retried after this delay, doubling up to the cap (docs/decisions.md, "Exactly one e-mail").
    NOTIFIER_RETRY_FIRST_MS: z.coerce.number().int().min(10).default(1000),
    NOTIFIER_RETRY_MAX_MS: z.coerce.number().int().min(10).default(300_000),
    ...vapidEnv.shape,
    VAPID_PRIVATE_KEY: z.string().min(1).optional(),
    MAIL_SEAL_PRIVATE_KEYS: mailSealPrivateKeys(env),
    PUSH_SERVICE_ORIGINS: pushServiceOrigins,
    // Where an export e-mail's download link must lead: the product's storage, not its credentials.
    S3_ENDPOINT: storageEnv(env).shape.S3_ENDPOINT,
    S3_BUCKET: storageEnv(env).shape.S3_BUCKET,
  });

export const authEnv = (env: Env) =>
  serviceEnv(env).extend({
    PUBLIC_URL: publicUrl(env),
    JWT_SECRET: secret(env, 'development-only-jwt-secret-change-me'),
    // Hands an invited client's magic link back to the coach (developmentMode, docs/product.md §7): off unless
    // set, as `npm start` does for a local stack; refused in production.
    AUTH_DEVELOPMENT_MODE:
      env.NODE_ENV === 'production'
        ? z
            .literal('false', { error: 'must be false in production' })
            .optional()
            .transform(() => false)
        : z.stringbool().default(false),
    // The sign-in and account deletion e-mails' links are sealed for the notifier.
    MAIL_SEAL_PUBLIC_KEY: mailSealPublicKey(env),
  });

/** The investor service: its campaign e-mails' text, which may hold an investor's access code, is sealed for the notifier. */
export const investorEnv = (env: Env) =>
  serviceEnv(env).extend({
    MAIL_SEAL_PUBLIC_KEY: mailSealPublicKey(env),
  });

/** The OpenAI-compatible model: either the key or the address switches from the offline writers to it. */
export const modelEnv = (env: Env) =>
  z.object({
    OPENAI_API_KEY: optionalSecret(env),
    OPENAI_BASE_URL: z.url().optional(),
    OPENAI_MODEL: z.string().min(1).default('gpt-4o-mini'),
    OPENAI_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(60_000),
  });

/** The progress service: the client records, sparks and notes, and the coach's drafted nudges. */
export const progressEnv = (env: Env) =>
  serviceEnv(env)
    .extend(storageEnv(env).shape)
    .extend(modelEnv(env).shape)
    .extend({
      // What one client's sparks may take in storage, in bytes (2 GB by default).
      STORAGE_QUOTA_BYTES: z.coerce
        .number()
        .int()
        .min(1)
        .default(2 * 1024 ** 3),
      // Each of the (at most two) model calls of a coach's draft; then the offline writer drafts. Two must fit in COACHING_DRAFT_TIMEOUT_MS.
      COACHING_MODEL_TIMEOUT_MS: z.coerce.number().int().min(100).max(12_000).default(10_000),
      // The data export worker runs inside the service process unless turned off (then run `src/export-worker-main.ts`).
      EXPORT_WORKER_ENABLED: z.stringbool().default(true),
      // Archives one worker process builds at once: each streams S3 to S3, so more mostly share the network.
      EXPORT_CONCURRENCY: z.coerce.number().int().min(1).max(20).default(2),
      // How long the e-mailed link works; at most 7 days, the longest a SigV4 presigned URL may live.
      EXPORT_LINK_SECONDS: z.coerce
        .number()
        .int()
        .min(1)
        .max(7 * 24 * 3600)
        .default(24 * 3600),
      // A job whose worker died is taken over after about this long.
      EXPORT_LOCK_MS: z.coerce.number().int().min(500).default(60_000),
      // A failed export is retried after this delay, doubling up to the cap, for hours (`CAPPED_BACKOFFS` in libs/jobs).
      EXPORT_RETRY_FIRST_MS: z.coerce.number().int().min(10).default(1000),
      EXPORT_RETRY_MAX_MS: z.coerce.number().int().min(10).default(900_000),
      // How often the reminder tick looks for clients whose reminder time has come (one tick for all replicas).
      REMINDER_TICK_MS: z.coerce.number().int().min(1000).max(60_000).default(15_000),
      PUSH_SERVICE_ORIGINS: pushServiceOrigins,
      // The export's download link and the reminder's unsubscribe token are sealed for the notifier.
      MAIL_SEAL_PUBLIC_KEY: mailSealPublicKey(env),
    });

/** The DITL service and its worker: storage for presentations, and the model when one is configured. */
export const ditlEnv = (env: Env) =>
  serviceEnv(env)
    .extend(storageEnv(env).shape)
    .extend(modelEnv(env).shape)
    .extend({
      // Jobs one worker process runs at once; scale further with more replicas.
      DITL_CONCURRENCY: z.coerce.number().int().min(1).max(200).default(5),
      // The worker runs inside the service process unless turned off (then run `src/worker-main.ts` replicas).
      DITL_WORKER_ENABLED: z.stringbool().default(true),
      DITL_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(3),
      // Generations one user may ask for per 24 hours (each is a model call); onboarding needs one.
      DITL_DAILY_GENERATIONS: z.coerce.number().int().min(1).max(1000).default(5),
      DITL_BACKOFF_MS: z.coerce.number().int().min(10).default(2000),
      // How long a job's lock lives without renewal: a dead worker's job is taken over after about this long.
      DITL_LOCK_MS: z.coerce.number().int().min(500).default(30_000),
      // How often each DITL worker fails generations left unfinished past the client's wait (a job that stalled
      // for good, a failure that could not be recorded).
      DITL_SWEEP_MS: z.coerce.number().int().min(100).default(30_000),
    });

export type BaseConfig = z.infer<ReturnType<typeof baseEnv>>;
export type ServiceConfig = z.infer<ReturnType<typeof serviceEnv>>;
export type GatewayConfig = z.infer<ReturnType<typeof gatewayEnv>>;
export type NotifierConfig = z.infer<ReturnType<typeof notifierEnv>>;
export type AuthConfig = z.infer<ReturnType<typeof authEnv>>;
export type ProgressConfig = z.infer<ReturnType<typeof progressEnv>>;
export type InvestorConfig = z.infer<ReturnType<typeof investorEnv>>;
export type StorageConfig = z.infer<ReturnType<typeof storageEnv>>;
export type ModelConfig = z.infer<ReturnType<typeof modelEnv>>;
export type DitlConfig = z.infer<ReturnType<typeof ditlEnv>>;
export type InvestorPageConfig = z.infer<ReturnType<typeof investorPageEnv>>;
