import { testOverride } from '../lib/test-overrides';

// Longer than any wait the gateway allows itself for one request (recording a spark is the longest), so a slow but
// live answer is never cut short.
const ANSWER_DEADLINE_MS = 75_000;
// A file still on its way at this rate is on a connection that is not carrying it: give up and try again.
const SLOWEST_UPLOAD_BYTES_PER_SECOND = 16 * 1024;

/**
 * How long a request may go unanswered before the page treats it as lost. Browsers wait on a silent connection for as
 * long as it stays open, which could hold a capture, and every capture queued behind it, until the page is reloaded.
 */
export const answerDeadlineMs = (): number => testOverride('answerDeadlineMs') ?? ANSWER_DEADLINE_MS;

/** The same for a request carrying a file of `bytes`: the answer's deadline plus the time to send it slowly. */
export const uploadDeadlineMs = (bytes: number): number => answerDeadlineMs() + Math.ceil((bytes / SLOWEST_UPLOAD_BYTES_PER_SECOND) * 1000);

/** A signal that aborts at the deadline; its abort is a `TimeoutError`. */
export const deadlineSignal = (deadlineMs: number): AbortSignal => AbortSignal.timeout(deadlineMs);

/** Whether `error` is a request given up at its deadline (the browser's fetch rejects with the signal's reason). */
export const isPastDeadline = (error: unknown): boolean => error instanceof DOMException && error.name === 'TimeoutError';
