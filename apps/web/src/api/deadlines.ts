import { testOverride } from '../lib/test-overrides';

// Longer than any wait the gateway allows itself for one request (recording a spark is the longest), so a slow but
// live answer is never cut short.
const ANSWER_DEADLINE_MS = 75_000;
// A form's file (an admin's deck or log image) goes through the gateway with fetch, which cannot see its progress: its
// deadline allows for a link slower than any that still carries data.
const SLOWEST_UPLOAD_BYTES_PER_SECOND = 1024;
// A spark's file, whose progress the page sees: no byte leaving for this long means the connection is not carrying it.
const UPLOAD_STALL_MS = 30_000;

/**
 * How long a request may go unanswered before the page treats it as lost. Browsers wait on a silent connection for as
 * long as it stays open, which could hold a capture, and every capture queued behind it, until the page is reloaded.
 */
export const answerDeadlineMs = (): number => testOverride('answerDeadlineMs') ?? ANSWER_DEADLINE_MS;

/** The same for a form carrying a file of `bytes`: the answer's deadline plus the time to send it very slowly. */
export const uploadDeadlineMs = (bytes: number): number => answerDeadlineMs() + Math.ceil((bytes / SLOWEST_UPLOAD_BYTES_PER_SECOND) * 1000);

/** How long a file upload that reports its progress may go without a byte leaving (api/put-file.ts). */
export const uploadStallMs = (): number => testOverride('uploadStallMs') ?? UPLOAD_STALL_MS;

/** Whether `error` is a request given up at its deadline (`AbortSignal.timeout`'s reason, with which fetch rejects). */
export const isPastDeadline = (error: unknown): boolean => error instanceof DOMException && error.name === 'TimeoutError';
