import { addAbortListener } from 'node:events';

/**
 * `work`'s value, or undefined as soon as `signal` aborts, whichever comes first. For a wait on Redis that must end
 * when its process stops: ioredis holds a command queued while it waits to reconnect, and disconnecting then leaves
 * the command unsettled for ever (docs/decisions.md). Made per wait, so a loop adds no listener that outlives it.
 */
export async function unlessAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) {
    work.catch(() => undefined);
    return undefined;
  }
  let listener: Disposable | undefined;
  const aborted = new Promise<undefined>((resolve) => (listener = addAbortListener(signal, () => resolve(undefined))));
  try {
    return await Promise.race([work, aborted]);
  } finally {
    listener?.[Symbol.dispose]();
  }
}
