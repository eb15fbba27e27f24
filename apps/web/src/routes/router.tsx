import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router-dom';
import { PageFallback, RootLayout } from './root-layout';

/** What a route says about itself: `prerender` pages are rendered to HTML at build time (entry-server.tsx). */
export interface RouteHandle {
  prerender?: boolean;
}

// The public pages a visitor or a search engine opens first: their HTML is in the first response.
const prerendered: RouteHandle = { prerender: true };

// Each screen is its own chunk, loaded by the router before it renders the route (so a prerendered
// page is hydrated in one pass): the public pages never download the app or the dashboard, and
// static pages skip the server-state layout (TanStack Query) too.
const screen = (load: () => Promise<{ default: ComponentType }>) => async () => ({ Component: (await load()).default });

export const routes: RouteObject[] = [
  {
    Component: RootLayout,
    HydrateFallback: PageFallback,
    children: [
      { path: '/', lazy: screen(() => import('../features/landing/components/landing-page')), handle: prerendered },
      { path: '/products', lazy: screen(() => import('../features/products/components/products-page')), handle: prerendered },
      { path: '/me', lazy: screen(() => import('../features/founder/components/founder-page')), handle: prerendered },
      { path: '/evolutions', lazy: screen(() => import('../features/evolutions/components/evolutions-page')), handle: prerendered },
      {
        lazy: screen(() => import('./server-state-layout')),
        children: [
          { path: '/interest', lazy: screen(() => import('../features/interest/components/interest-page')), handle: prerendered },
          { path: '/interest/thank-you', lazy: screen(() => import('../features/interest/components/thank-you-page')) },
          { path: '/signin', lazy: screen(() => import('../features/auth/components/sign-in-page')) },
          { path: '/signup', lazy: screen(() => import('../features/auth/components/signup-page')) },
          { path: '/magic-link-auth', lazy: screen(() => import('../features/auth/components/magic-link-auth-page')) },
          { path: '/coach', lazy: screen(() => import('../features/coach/components/coach-dashboard-page')) },
          { path: '/donate', lazy: screen(() => import('../features/investors/components/donate-page')) },
          { path: '/log', lazy: screen(() => import('../features/dev-log/components/log-list-page')) },
          { path: '/log/:slug', lazy: screen(() => import('../features/dev-log/components/log-post-page')) },
          { path: '/app', lazy: screen(() => import('../features/client-app/components/client-home-page')) },
          { path: '/goal', lazy: screen(() => import('../features/onboarding/components/goal-page')) },
          { path: '/confirmation', lazy: screen(() => import('../features/onboarding/components/confirmation-page')) },
          { path: '/onboarding', lazy: screen(() => import('../features/onboarding/components/onboarding-page')) },
          { path: '/ditl-welcome', lazy: screen(() => import('../features/ditl/components/ditl-welcome-page')) },
        ],
      },
      { path: '*', lazy: screen(() => import('../features/errors/components/not-found-page')) },
    ],
  },
];
