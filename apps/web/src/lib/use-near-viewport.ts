import { type RefCallback, useCallback, useState } from 'react';

/**
 * True once the element comes within `margin` of the viewport, and from then on. For work a visitor
 * may never scroll to (a carousel low on the page): it starts shortly before it would be seen.
 */
export function useNearViewport<T extends Element>(margin = '400px'): [RefCallback<T>, boolean] {
  const [near, setNear] = useState(false);
  const ref = useCallback<RefCallback<T>>(
    (element) => {
      if (!element) return;
      const observer = new IntersectionObserver(
        (entries) => {
          if (!entries.some((entry) => entry.isIntersecting)) return;
          setNear(true);
          observer.disconnect();
        },
        { rootMargin: margin },
      );
      observer.observe(element);
      return () => observer.disconnect();
    },
    [margin],
  );
  return [ref, near];
}
