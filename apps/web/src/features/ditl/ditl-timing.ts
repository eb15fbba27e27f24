import { DITL_POLL_INTERVAL_MS, DITL_POLL_TIMEOUT_MS } from '@spark/contracts';
import { testOverride } from '../../lib/test-overrides';

/** The poll interval and give-up time of docs/product.md §9; browser tests shorten them (lib/test-overrides.ts). */
export function ditlTiming(): { pollIntervalMs: number; timeoutMs: number } {
  return {
    pollIntervalMs: testOverride('ditlPollIntervalMs') ?? DITL_POLL_INTERVAL_MS,
    timeoutMs: testOverride('ditlPollTimeoutMs') ?? DITL_POLL_TIMEOUT_MS,
  };
}
