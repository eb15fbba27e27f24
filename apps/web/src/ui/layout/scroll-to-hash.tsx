import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';

// Lazy pages render a moment after navigation, so the target is looked up for up to ~2 s.
const maxFramesToWait = 120;

/** Router navigations do not scroll: go to the #anchor if there is one, else to the top. */
export function ScrollToHash() {
  const { pathname, hash, key } = useLocation();

  useEffect(() => {
    if (!hash) {
      window.scrollTo({ top: 0, behavior: 'instant' });
      return;
    }
    let frame = 0;
    let handle = 0;
    const tryScroll = () => {
      const target = document.getElementById(decodeURIComponent(hash.slice(1)));
      if (target) {
        target.scrollIntoView({ block: 'start' });
        return;
      }
      if (frame++ < maxFramesToWait) handle = requestAnimationFrame(tryScroll);
    };
    tryScroll();
    return () => cancelAnimationFrame(handle);
  }, [pathname, hash, key]);

  return null;
}
