export interface BackoffOptions {
  /** Retries after the first try (docs/product.md: back-off starting at 200 ms, doubling). */
  retries: number;
  firstDelayMs: number;
  /** Whether a failure is worth another try; a definite "no" (e.g. a 401) is not. */
  isTransient: (error: unknown) => boolean;
  sleep?: (ms: number) => Promise<void>;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs `attempt`, retrying transient failures after firstDelayMs, 2x, 4x, ... */
export async function retryWithBackoff<T>(attempt: () => Promise<T>, options: BackoffOptions): Promise<T> {
  const sleep = options.sleep ?? realSleep;
  for (let retry = 0; ; retry++) {
    try {
      return await attempt();
    } catch (error) {
      if (retry >= options.retries || !options.isTransient(error)) throw error;
      await sleep(options.firstDelayMs * 2 ** retry);
    }
  }
}
