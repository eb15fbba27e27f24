import { useMemo } from 'react';
import { ApiError } from './client';

/** No answer, or the server failed: the command may have run, so a retry must carry the same key. */
const mayHaveRun = (error: unknown) => error instanceof ApiError && (error.status === 0 || error.status >= 500);

// Held for the page's life, not a form's: a coach who closes the dialog after a lost answer and sends the same words
// from it again is retrying the same command.
const heldKeys = new Map<string, string>();

/**
 * The `Idempotency-Key` of one `action` a person may press again (a note, a regeneration): the same key while they
 * retry the same input after a failure whose outcome is unknown, so the server runs it once; a new key for other input,
 * or after the action succeeded or was refused, so pressing again then is a new action.
 */
export function useIdempotencyKey(action: string): { keyFor(input: unknown): string; settled(error: unknown): void } {
  return useMemo(() => {
    let lastSent: string | undefined;
    return {
      keyFor(input: unknown): string {
        lastSent = `${action}\n${JSON.stringify(input)}`;
        const key = heldKeys.get(lastSent) ?? crypto.randomUUID();
        heldKeys.set(lastSent, key);
        return key;
      },
      settled(error: unknown): void {
        if (lastSent !== undefined && !mayHaveRun(error)) heldKeys.delete(lastSent);
      },
    };
  }, [action]);
}
