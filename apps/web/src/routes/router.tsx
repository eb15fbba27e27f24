import type { ComponentType } from 'react';
import type { LoaderFunction, RouteObject } from 'react-router-dom';
import { PageFallback, RootLayout } from './root-layout';
import { RouteError } from './route-error';

/**
 * What a route says about itself: `prerender` pages are rendered to HTML at build time
 * (entry-server.tsx), and `module` is the screen's source file, so the prerendered HTML can ask
 * for the screen's chunks at once.
 */
export interface RouteHandle {
  prerender?: boolean;
  /** Search parameters that turn a prerendered page into another one: each is prerendered as `path?name` too. */
  prerenderedVariants?: string[];
  module?: string;
}

// The public pages a visitor or a search engine opens first: their HTML is in the first response. What a page
// reads from the API is not in it: those parts render once the page is hydrated (LoadedInBrowser).
const prerendered: RouteHandle = { prerender: true };

// Each screen is its own chunk, loaded by the router before it renders the route (so a prerendered
// page is hydrated in one pass): the public pages never download the app or the dashboard. Only the
// screens under the server-state layout use TanStack Query; the public pages read through their route's
// loader and write with React's own transitions, so a first visit does not download it.
// A screen may also export its data `loader` and the `ErrorBoundary` shown when that fails.
interface ScreenModule {
  default: ComponentType;
  loader?: LoaderFunction;
  ErrorBoundary?: ComponentType;
}
const screenModules = import.meta.glob<ScreenModule>(['../features/*/components/*-page.tsx', './server-state-layout.tsx']);

function screen(path: string, handle: RouteHandle = {}): Pick<RouteObject, 'lazy' | 'handle'> {
  const load = screenModules[path];
  if (!load) throw new Error(`No screen module at ${path}`);
  return {
    lazy: async () => {
      const { default: Component, loader, ErrorBoundary } = await load();
      return { Component, ...(loader && { loader }), ...(ErrorBoundary && { ErrorBoundary }) };
    },
    handle: { ...handle, module: path },
  };
}

export const routes: RouteObject[] = [
  {
    Component: RootLayout,
    HydrateFallback: PageFallback,
    ErrorBoundary: RouteError,
    children: [
      { path: '/', ...screen('../features/landing/components/landing-page.tsx', prerendered) },
      { path: '/products', ...screen('../features/products/components/products-page.tsx', prerendered) },
      { path: '/me', ...screen('../features/founder/components/founder-page.tsx', prerendered) },
      { path: '/evolutions', ...screen('../features/evolutions/components/evolutions-page.tsx', prerendered) },
      { path: '/interest', ...screen('../features/interest/components/interest-page.tsx', prerendered) },
      { path: '/signin', ...screen('../features/auth/components/sign-in-page.tsx', prerendered) },
      { path: '/donate', ...screen('../features/investors/components/donate-page.tsx', { ...prerendered, prerenderedVariants: ['early-access'] }) },
      { path: '/log', ...screen('../features/dev-log/components/log-list-page.tsx', prerendered) },
      { path: '/log/:slug', ...screen('../features/dev-log/components/log-post-page.tsx') },
      {
        ...screen('./server-state-layout.tsx'),
        children: [
          { path: '/interest/thank-you', ...screen('../features/interest/components/thank-you-page.tsx') },
          { path: '/signup', ...screen('../features/auth/components/signup-page.tsx') },
          { path: '/magic-link-auth', ...screen('../features/auth/components/magic-link-auth-page.tsx') },
          { path: '/account/delete', ...screen('../features/account-deletion/components/delete-account-page.tsx') },
          { path: '/reminders/off', ...screen('../features/reminders/components/reminders-off-page.tsx') },
          { path: '/coach', ...screen('../features/coach/components/coach-dashboard-page.tsx') },
          { path: '/app', ...screen('../features/client-app/components/client-home-page.tsx') },
          { path: '/goal', ...screen('../features/onboarding/components/goal-page.tsx') },
          { path: '/confirmation', ...screen('../features/onboarding/components/confirmation-page.tsx') },
          { path: '/onboarding', ...screen('../features/onboarding/components/onboarding-page.tsx') },
          { path: '/ditl-welcome', ...screen('../features/ditl/components/ditl-welcome-page.tsx') },
        ],
      },
      { path: '*', ...screen('../features/errors/components/not-found-page.tsx') },
    ],
  },
];
