/** Screens of the spec that later issues build; until then they share the NotBuiltYet page. */
export const upcomingRoutes = [
  { path: '/signin', name: 'Sign in', purpose: 'Magic-link sign-in for clients and coaches.' },
  { path: '/signup', name: 'Coach approval', purpose: 'The coach-approval notice and the waiting page for approved users.' },
  { path: '/goal', name: 'Your goal', purpose: 'Capturing what sparked your transformation before confirmation.' },
  { path: '/confirmation', name: "You're All Set!", purpose: 'The confirmation screen that opens the client app.' },
  { path: '/onboarding', name: 'Onboarding', purpose: 'Four short onboarding steps, about four minutes in all.' },
  { path: '/ditl-welcome', name: 'Your Day in the Life', purpose: 'Generating and showing your personalised "Day in the Life" presentation.' },
  { path: '/magic-link-auth', name: 'Signing you in', purpose: 'The landing page for the link we e-mail you.' },
  { path: '/app', name: 'The Spark app', purpose: 'The client app: capture sparks, build streaks and follow your evolution.' },
  { path: '/coach', name: 'Coach Dashboard', purpose: 'Where coaches review leads, guide clients and publish posts.' },
  { path: '/donate', name: 'Invest in Spark', purpose: 'The investor page: the deck, use of funds and commitment levels.' },
] as const;

export type UpcomingRoute = (typeof upcomingRoutes)[number];
