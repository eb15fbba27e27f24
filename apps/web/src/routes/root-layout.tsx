import { lazy, Suspense, useEffect } from 'react';
import { Outlet, useNavigation } from 'react-router-dom';
import { useHydrated } from '../lib/hydration';
import { ScrollToHash } from '../ui/layout/scroll-to-hash';
import { Spinner } from '../ui/spinner';
import { useToasterNeeded } from '../ui/toaster-gate';

const Toaster = lazy(() => import('../ui/sonner-toaster'));

/** Shown while the first screen's chunk loads (a page that was not prerendered). */
export function PageFallback() {
  return (
    <div className="flex min-h-[60vh] items-center justify-center text-spark-600">
      <Spinner label="Loading page" />
    </div>
  );
}

/** Shared by every screen; the toaster lives here so a toast survives navigation. */
export function RootLayout() {
  const toasterNeeded = useToasterNeeded();
  // The next screen's chunk is loading: the current one stays, with a bar across the top.
  const loadingNextScreen = useNavigation().state === 'loading';
  // Marks the moment React has taken over the page (a prerendered one is on screen before that): after the render
  // that follows hydration, in which every form gated on `useHydrated` is enabled too.
  const hydrated = useHydrated();
  useEffect(() => {
    if (hydrated) document.documentElement.setAttribute('data-interactive', 'true');
  }, [hydrated]);
  return (
    <>
      <ScrollToHash />
      {loadingNextScreen && <div role="progressbar" aria-label="Loading page" className="fixed inset-x-0 top-0 z-50 h-1 animate-pulse bg-spark-500" />}
      <Suspense fallback={<PageFallback />}>
        <Outlet />
      </Suspense>
      {toasterNeeded && (
        <Suspense fallback={null}>
          <Toaster />
        </Suspense>
      )}
    </>
  );
}
