import { type ReactNode, Suspense } from 'react';
import { useHydrated } from './hydration';

/**
 * The part of a prerendered page that shows its route loader's data, which the build could not read: the HTML
 * holds `fallback`, hydration starts from it, and once React has taken over, `children` render (suspending on the
 * loader's promises until they settle). Rendered in the browser from the start, it is an ordinary Suspense boundary.
 */
export function LoadedInBrowser({ fallback, children }: { fallback: ReactNode; children: ReactNode }) {
  const hydrated = useHydrated();
  return <Suspense fallback={fallback}>{hydrated ? children : fallback}</Suspense>;
}
