import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

const storage = new AsyncLocalStorage<string>();

/** Runs `fn` with `correlationId` visible to every log line and outgoing message below it. */
export function runWithCorrelationId<T>(correlationId: string, fn: () => T): T {
  return storage.run(correlationId, fn);
}

export function currentCorrelationId(): string | undefined {
  return storage.getStore();
}

export function newCorrelationId(): string {
  return randomUUID();
}
