import { useMemo, useRef } from 'react';
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
  const lastSent = useRef<string | undefined>(undefined);
  return useMemo(
    () => ({
      keyFor(input: unknown): string {
        const sent = `${action}\n${JSON.stringify(input)}`;
        lastSent.current = sent;
        const key = heldKeys.get(sent) ?? crypto.randomUUID();
        heldKeys.set(sent, key);
        return key;
      },
      settled(error: unknown): void {
        if (lastSent.current !== undefined && !mayHaveRun(error)) heldKeys.delete(lastSent.current);
      },
    }),
    [action],
  );
}
