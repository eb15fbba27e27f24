import { DITL_POLL_INTERVAL_MS, DITL_POLL_TIMEOUT_MS } from '@spark/contracts';

/**
 * Browser tests shorten the 3 s / 120 s of docs/product.md §9 by defining `window.__SPARK_TEST__` before the page
 * loads (Playwright's addInitScript). Only a script already running in the page can set it, and it
 * only changes how patiently the page waits, so production behaviour is unaffected.
 */
interface SparkTestOverrides {
  ditlPollIntervalMs?: number;
  ditlPollTimeoutMs?: number;
}

declare global {
  interface Window {
    __SPARK_TEST__?: SparkTestOverrides;
  }
}

const positive = (value: number | undefined) => (typeof value === 'number' && value > 0 ? value : undefined);

export function ditlTiming(): { pollIntervalMs: number; timeoutMs: number } {
  const overrides = window.__SPARK_TEST__;
  return {
    pollIntervalMs: positive(overrides?.ditlPollIntervalMs) ?? DITL_POLL_INTERVAL_MS,
    timeoutMs: positive(overrides?.ditlPollTimeoutMs) ?? DITL_POLL_TIMEOUT_MS,
  };
}
