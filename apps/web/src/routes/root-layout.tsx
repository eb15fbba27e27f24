import { lazy, Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { ScrollToHash } from '../ui/layout/scroll-to-hash';
import { Spinner } from '../ui/spinner';
import { useToasterNeeded } from '../ui/toaster-gate';

const Toaster = lazy(() => import('../ui/toaster'));

function PageFallback() {
  return (
    <div className="flex min-h-[60vh] items-center justify-center text-spark-600">
      <Spinner label="Loading page" />
    </div>
  );
}

/** Shared by every screen; the toaster lives here so a toast survives navigation. */
export function RootLayout() {
  const toasterNeeded = useToasterNeeded();
  return (
    <>
      <ScrollToHash />
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
