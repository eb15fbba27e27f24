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

type Router = ReturnType<typeof createBrowserRouter>;

/**
 * Until a route's loaders have answered, the router renders its HydrateFallback, not the page: a prerendered page
 * with a loader (its data shown once hydrated) is hydrated after that first answer, which its loader gives at once.
 */
function loadersAnswered(router: Router): Promise<void> {
  if (router.state.initialized) return Promise.resolve();
  return new Promise((answered) => {
    const stop = router.subscribe((state) => {
      if (!state.initialized) return;
      stop();
      answered();
    });
  });
}

const app = (router: Router) => (
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>
);

async function hydrate(root: HTMLElement): Promise<void> {
  await loadInitialScreens();
  const router = createBrowserRouter(routes);
  await loadersAnswered(router);
  // Hydrating as a transition lets React work in short slices, keeping a phone's main thread free.
  startTransition(() => {
    hydrateRoot(root, app(router), {
      onRecoverableError: (error) => console.error('Hydration fell back to a client render:', error),
    });
  });
}

if (container.hasChildNodes()) void hydrate(container);
else createRoot(container).render(app(createBrowserRouter(routes)));
