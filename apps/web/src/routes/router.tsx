import { lazy } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import { RootLayout } from './root-layout';

// Each screen is its own chunk: the public pages never download the app or the dashboard,
// and static pages skip the server-state layout (TanStack Query) too.
const LandingPage = lazy(() => import('../features/landing/components/landing-page'));
const InterestPage = lazy(() => import('../features/interest/components/interest-page'));
const ThankYouPage = lazy(() => import('../features/interest/components/thank-you-page'));
const ProductsPage = lazy(() => import('../features/products/components/products-page'));
const FounderPage = lazy(() => import('../features/founder/components/founder-page'));
const EvolutionsPage = lazy(() => import('../features/evolutions/components/evolutions-page'));
const SignInPage = lazy(() => import('../features/auth/components/sign-in-page'));
const SignupPage = lazy(() => import('../features/auth/components/signup-page'));
const MagicLinkAuthPage = lazy(() => import('../features/auth/components/magic-link-auth-page'));
const CoachDashboardPage = lazy(() => import('../features/coach/components/coach-dashboard-page'));
const DonatePage = lazy(() => import('../features/investors/components/donate-page'));
const LogListPage = lazy(() => import('../features/dev-log/components/log-list-page'));
const LogPostPage = lazy(() => import('../features/dev-log/components/log-post-page'));
const ClientHomePage = lazy(() => import('../features/client-app/components/client-home-page'));
const GoalPage = lazy(() => import('../features/onboarding/components/goal-page'));
const ConfirmationPage = lazy(() => import('../features/onboarding/components/confirmation-page'));
const OnboardingPage = lazy(() => import('../features/onboarding/components/onboarding-page'));
const DitlWelcomePage = lazy(() => import('../features/ditl/components/ditl-welcome-page'));
const ServerStateLayout = lazy(() => import('./server-state-layout'));
const NotFoundPage = lazy(() => import('../features/errors/components/not-found-page'));

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
          { path: '/signin', element: <SignInPage /> },
          { path: '/signup', element: <SignupPage /> },
          { path: '/magic-link-auth', element: <MagicLinkAuthPage /> },
          { path: '/coach', element: <CoachDashboardPage /> },
          { path: '/donate', element: <DonatePage /> },
          { path: '/log', element: <LogListPage /> },
          { path: '/log/:slug', element: <LogPostPage /> },
          { path: '/app', element: <ClientHomePage /> },
          { path: '/goal', element: <GoalPage /> },
          { path: '/confirmation', element: <ConfirmationPage /> },
          { path: '/onboarding', element: <OnboardingPage /> },
          { path: '/ditl-welcome', element: <DitlWelcomePage /> },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export const router = createBrowserRouter(routes);
