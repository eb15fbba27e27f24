/**
 * Browser tests make the page less patient by defining `window.__SPARK_TEST__` before it loads (Playwright's
 * addInitScript). Only a script already running in the page can set it, and it only changes how long the page
 * waits, so production behaviour is unaffected.
 */
export interface SparkTestOverrides {
  ditlPollIntervalMs?: number;
  ditlPollTimeoutMs?: number;
  /** How long a request to Spark may go unanswered before the page treats it as lost (api/deadlines.ts). */
  answerDeadlineMs?: number;
  /** How long a spark's file upload may go without a byte leaving (api/deadlines.ts). */
  uploadStallMs?: number;
}

declare global {
  var __SPARK_TEST__: SparkTestOverrides | undefined;
}

/** The test's value for `name`, or undefined outside such a test. */
export function testOverride(name: keyof SparkTestOverrides): number | undefined {
  const value = globalThis.__SPARK_TEST__?.[name];
  return typeof value === 'number' && value > 0 ? value : undefined;
}
