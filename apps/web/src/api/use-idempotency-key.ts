import { useMemo, useRef } from 'react';
import { ApiError } from './client';

/** No answer, or the server failed: the command may have run, so a retry must carry the same key. */
const mayHaveRun = (error: unknown) => error instanceof ApiError && (error.status === 0 || error.status >= 500);

/**
 * The `Idempotency-Key` of one action a person may press again (a note, a regeneration): the same key while they retry
 * the same input after a failure whose outcome is unknown, so the server runs it once; a new key once the input
 * changes, or after the action succeeded or was refused, so pressing again then is a new action.
 */
export function useIdempotencyKey(): { keyFor(input: unknown): string; settled(error: unknown): void } {
  const held = useRef<{ input: string; key: string } | null>(null);
  return useMemo(
    () => ({
      keyFor(input: unknown): string {
        const text = JSON.stringify(input);
        if (held.current?.input !== text) held.current = { input: text, key: crypto.randomUUID() };
        return held.current.key;
      },
      settled(error: unknown): void {
        if (!mayHaveRun(error)) held.current = null;
      },
    }),
    [],
  );
}
