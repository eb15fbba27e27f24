import { z } from 'zod';
import { type Env, secret, serviceUrl } from './load-config';

const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);

/** What every process needs: where PostgreSQL and Redis are, and how to log. */
export const baseEnv = (env: Env) =>
  z.object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    DATABASE_URL: serviceUrl(env, 'postgres://postgres@127.0.0.1:5432/spark'),
    REDIS_URL: serviceUrl(env, 'redis://127.0.0.1:6379'),
    // Namespaces every stream, reply list and queue key, so several stacks can share one Redis.
    BUS_PREFIX: z.string().regex(/^[a-z0-9_-]+$/).default('spark'),
    BUS_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(5000),
  });

/** S3-compatible storage; the defaults are the local s3rver that `npm start` runs. */
export const storageEnv = (env: Env) =>
  z.object({
    S3_ENDPOINT: serviceUrl(env, 'http://127.0.0.1:4569'),
    S3_REGION: z.string().default('us-east-1'),
    S3_BUCKET: z.string().default('sparks'),
    S3_LOG_BUCKET: z.string().default('log'),
    S3_ACCESS_KEY_ID: secret(env, 'S3RVER'),
    S3_SECRET_ACCESS_KEY: secret(env, 'S3RVER'),
  });

export const serviceEnv = (env: Env) =>
  baseEnv(env).extend({
    HEALTH_PORT: port(0),
    OUTBOX_POLL_MS: z.coerce.number().int().min(10).default(1000),
    // How long a dispatched job may go unseen before the relay asks BullMQ whether Redis lost it.
    OUTBOX_VERIFY_AFTER_MS: z.coerce.number().int().min(10).default(10_000),
  });

export const gatewayEnv = (env: Env) =>
  baseEnv(env).extend({
    PORT: port(8080),
    HOST: z.string().default('0.0.0.0'),
    PUBLIC_URL: z.url().default('http://localhost:8080'),
    JWT_SECRET: secret(env, 'development-only-jwt-secret-change-me'),
    // The built SPA; empty disables static serving (API-only gateway).
    WEB_DIST: z.string().default(''),
  });

export const notifierEnv = (env: Env) =>
  serviceEnv(env).extend({
    SMTP_URL: serviceUrl(env, 'smtp://127.0.0.1:1025'),
    MAIL_FROM: z.string().default('Spark <hello@spark.local>'),
    LEAD_ALERT_EMAIL: z.email().default('alerts@spark.local'),
    PUBLIC_URL: z.url().default('http://localhost:8080'),
    NOTIFIER_CONCURRENCY: z.coerce.number().int().min(1).max(200).default(10),
  });

export type BaseConfig = z.infer<ReturnType<typeof baseEnv>>;
export type ServiceConfig = z.infer<ReturnType<typeof serviceEnv>>;
export type GatewayConfig = z.infer<ReturnType<typeof gatewayEnv>>;
export type NotifierConfig = z.infer<ReturnType<typeof notifierEnv>>;
export type StorageConfig = z.infer<ReturnType<typeof storageEnv>>;
