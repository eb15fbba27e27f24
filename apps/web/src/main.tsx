import './lib/zod-without-eval';
import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, matchRoutes, RouterProvider } from 'react-router-dom';
import { routes } from './routes/router';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('The #root element is missing from index.html');

/**
 * Loads the screens of the current URL before React starts, as react-router's SSR guide advises: a
 * prerendered page must be hydrated in one pass, since a boundary still waiting for its chunk when
 * the router first updates would be thrown away and rendered again (a flash, and typed text lost).
 */
async function loadInitialScreens(): Promise<void> {
  const matches = matchRoutes(routes, window.location) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      Object.assign(route, { ...(await route.lazy()), lazy: undefined });
    }),
  );
}

const app = () => (
  <StrictMode>
    <RouterProvider router={createBrowserRouter(routes)} />
  </StrictMode>
);

function hydrate(root: HTMLElement): void {
  // Hydrating as a transition lets React work in short slices, keeping a phone's main thread free.
  startTransition(() => {
    hydrateRoot(root, app(), {
      onRecoverableError: (error) => console.error('Hydration fell back to a client render:', error),
    });
  });
}

if (container.hasChildNodes()) void loadInitialScreens().then(() => hydrate(container));
else createRoot(container).render(app());
