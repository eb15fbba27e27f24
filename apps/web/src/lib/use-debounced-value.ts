import { useEffect, useState } from 'react';

/** How long typing must pause before a search is sent: between a person's keystrokes, short enough to feel instant. */
export const TYPING_PAUSE_MS = 300;

/** `value` once it has stayed the same for `delayMs`, so a search typed key by key asks the server once, not per key. */
export function useDebouncedValue<T>(value: T, delayMs = TYPING_PAUSE_MS): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}
