import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';

// Lazy pages render a moment after navigation, so the target is looked up for up to ~2 s.
const maxFramesToWait = 120;

/**
 * Sections off screen are laid out at a placeholder height until they come near it (`render-when-visible`), so a
 * scroll that passes sections not yet shown would aim at where the target was before they took their real height,
 * and end above or below it. Every section is laid out before the scroll starts, and kept so until the browser has
 * remembered their real heights, which they keep when they go back to skipping.
 */
function scrollWithFinalLayout(target: HTMLElement) {
  const root = document.documentElement;
  root.dataset.fullLayout = '';
  target.scrollIntoView({ block: 'start' });
  requestAnimationFrame(() => requestAnimationFrame(() => delete root.dataset.fullLayout));
}

/**
 * Router navigations do not scroll: go to the #anchor if there is one, else to the top. The page the browser opened
 * stays where the browser or the visitor put it before React took over a prerendered page; only an #anchor the
 * browser could not find (a screen rendered in the browser) is scrolled to.
 */
export function ScrollToHash() {
  const location = useLocation();
  const openedLocation = useRef(location);

  useEffect(() => {
    const { hash } = location;
    if (location === openedLocation.current && (!hash || window.scrollY > 0)) return;
    if (!hash) {
      window.scrollTo({ top: 0, behavior: 'instant' });
      return;
    }
    let frame = 0;
    let handle = 0;
    const tryScroll = () => {
      const target = document.getElementById(decodeURIComponent(hash.slice(1)));
      if (target) {
        scrollWithFinalLayout(target);
        return;
      }
      if (frame++ < maxFramesToWait) handle = requestAnimationFrame(tryScroll);
    };
    tryScroll();
    return () => cancelAnimationFrame(handle);
  }, [location]);

  return null;
}
