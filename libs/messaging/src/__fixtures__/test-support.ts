import { randomBytes } from 'node:crypto';
import { createLogger } from '@spark/logging';
import Redis from 'ioredis';

export const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export const quietLogger = createLogger('messaging-test', 'silent');

/** A key namespace of one test file, so parallel runs never share streams. */
export function uniquePrefix(): string {
  return `test-${randomBytes(6).toString('hex')}`;
}

export async function deleteKeysUnder(prefix: string): Promise<void> {
  const redis = new Redis(redisUrl);
  try {
    const keys: string[] = [];
    for await (const batch of redis.scanStream({ match: `${prefix}:*`, count: 500 })) keys.push(...(batch as string[]));
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
}

/** Waits until `condition` holds, polling; fails after `timeoutMs`. */
export async function eventually(condition: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const giveUpAt = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > giveUpAt) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
