import { z } from 'zod';

export class ConfigError extends Error {
  constructor(readonly variables: string[], detail: string) {
    super(`Invalid configuration: ${detail}`);
    this.name = 'ConfigError';
  }
}

export type Env = Record<string, string | undefined>;

const isProduction = (env: Env) => env.NODE_ENV === 'production';

/**
 * A secret with a development default. In production the default is refused, so a missing
 * secret stops the process with a message naming the variable.
 */
export const secret = (env: Env, devDefault: string) =>
  isProduction(env) ? z.string({ error: 'is required in production' }).min(16, 'must be at least 16 characters') : z.string().min(1).default(devDefault);

/** A URL of a backing service; unset in production means unset (the caller decides). */
export const serviceUrl = (env: Env, devDefault: string) =>
  isProduction(env) ? z.url({ error: 'is required in production' }) : z.url().default(devDefault);

/** Parses `env` with the app's schema once, at boot; every error names its variable. */
export function loadConfig<S extends z.ZodObject>(build: (env: Env) => S, env: Env = process.env): z.infer<S> {
  const result = build(env).safeParse(env);
  if (result.success) return result.data;
  const variables = [...new Set(result.error.issues.map((issue) => String(issue.path[0])))];
  const detail = result.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; ');
  throw new ConfigError(variables, detail);
}
