import { useSyncExternalStore } from 'react';

const neverChanges = () => () => {};

/**
 * What the prerendered HTML shows (`prerendered`) while React takes over the page and on the server,
 * then the browser's own value. Hydration must start from exactly the server's markup; anything only
 * the browser knows (this year, that React is running) takes its place right after.
 */
export function useAfterHydration<T>(prerendered: T, inBrowser: () => T): T {
  return useSyncExternalStore(neverChanges, inBrowser, () => prerendered);
}

/**
 * False until React has taken over the page. A form rendered into prerendered HTML keeps its submit
 * button disabled until then, so an early tap cannot fall through to the browser's own form
 * submission (a GET with the e-mail in the URL).
 */
export function useHydrated(): boolean {
  return useAfterHydration(false, () => true);
}
