import { addAbortListener } from 'node:events';

/**
 * `work`'s value, or a rejection with the signal's reason as soon as `signal` aborts, whichever comes first. For a
 * wait on Redis that must end when its process stops: ioredis holds a command queued while it waits to reconnect,
 * and disconnecting then leaves the command unsettled for ever (docs/decisions.md). Made per wait, so a loop adds no
 * listener that outlives it; work given up on is still observed, so its late failure is no unhandled rejection.
 */
export async function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    work.catch(() => undefined);
    throw signal.reason;
  }
  let listener: Disposable | undefined;
  const aborted = new Promise<never>((_, reject) => (listener = addAbortListener(signal, () => reject(signal.reason))));
  try {
    return await Promise.race([work, aborted]);
  } finally {
    listener?.[Symbol.dispose]();
  }
}

/** `abortable`, answering undefined instead of failing once `signal` aborts: for a loop that then just ends. */
export async function unlessAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  try {
    return await abortable(work, signal);
  } catch (error) {
    if (signal.aborted && error === signal.reason) return undefined;
    throw error;
  }
}
