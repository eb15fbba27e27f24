import { lazy } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import { RootLayout } from './root-layout';
import { upcomingRoutes } from './upcoming-routes';

// Each screen is its own chunk: the public pages never download the app or the dashboard,
// and static pages skip the server-state layout (TanStack Query) too.
const LandingPage = lazy(() => import('../features/landing/components/landing-page'));
const InterestPage = lazy(() => import('../features/interest/components/interest-page'));
const ThankYouPage = lazy(() => import('../features/interest/components/thank-you-page'));
const ProductsPage = lazy(() => import('../features/products/components/products-page'));
const FounderPage = lazy(() => import('../features/founder/components/founder-page'));
const EvolutionsPage = lazy(() => import('../features/evolutions/components/evolutions-page'));
const ServerStateLayout = lazy(() => import('./server-state-layout'));
const NotBuiltYetPage = lazy(() => import('../features/errors/components/not-built-yet-page'));
const NotFoundPage = lazy(() => import('../features/errors/components/not-found-page'));

const upcoming: RouteObject[] = upcomingRoutes.map((route) => ({
  path: route.path,
  element: <NotBuiltYetPage route={route} />,
}));

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { path: '/', element: <LandingPage /> },
      { path: '/products', element: <ProductsPage /> },
      { path: '/me', element: <FounderPage /> },
      { path: '/evolutions', element: <EvolutionsPage /> },
      {
        element: <ServerStateLayout />,
        children: [
          { path: '/interest', element: <InterestPage /> },
          { path: '/interest/thank-you', element: <ThankYouPage /> },
          ...upcoming,
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export const router = createBrowserRouter(routes);
