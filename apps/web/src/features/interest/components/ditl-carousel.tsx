import { lazy, type Ref, Suspense } from 'react';
import { useNearViewport } from '../../../lib/use-near-viewport';
import { Spinner } from '../../../ui/spinner';

// The carousel library is a sizeable share of the page's script and sits low on the page: it loads with the slides.
const DitlSlides = lazy(() => import('./ditl-slide-track'));

function Placeholder({ ref }: { ref?: Ref<HTMLDivElement> }) {
  return (
    <div ref={ref} className="flex min-h-64 items-center justify-center text-spark-600">
      <Spinner label="Loading slides" />
    </div>
  );
}

/** The "Day in the Life" slides, loaded as they come near the screen. */
export function DitlCarousel() {
  const [placeholder, near] = useNearViewport<HTMLDivElement>();
  if (!near) return <Placeholder ref={placeholder} />;
  return (
    <Suspense fallback={<Placeholder />}>
      <DitlSlides />
    </Suspense>
  );
}
