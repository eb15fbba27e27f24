import { useSyncExternalStore } from 'react';

const neverChanges = () => () => {};

/**
 * False while React is still taking over a prerendered page (and on the server), true from then on.
 * A form rendered into prerendered HTML keeps its submit button disabled until then, so an early tap
 * cannot fall through to the browser's own form submission (a GET with the e-mail in the URL).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    neverChanges,
    () => true,
    () => false,
  );
}
