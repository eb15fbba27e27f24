import type { AuthUser } from '@spark/contracts';

export interface SignedInContext {
  user: AuthUser;
  /** The local onboarding-complete flag, or the server's record of a finished onboarding. */
  onboardingComplete: boolean;
}

export interface Destination {
  path: string;
  welcome: string;
}

const isCoach = (user: AuthUser) => user.user_metadata.role === 'coach' || user.user_metadata.role === 'admin';

// `next` comes from the e-mailed URL: only a plain relative path, never another origin.
const safeNext = (next: string | null) => (next && /^[a-z0-9-]+(\/[a-z0-9-]+)*$/.test(next) ? next : null);

/** Where /magic-link-auth (and the sign-in code) continues to: the rules of docs/product.md §2 (/magic-link-auth), first match wins. */
export function destinationAfterSignIn({ user, onboardingComplete }: SignedInContext, next: string | null): Destination {
  const target = safeNext(next);
  if (isCoach(user)) return { path: '/coach', welcome: 'Welcome, coach! Redirecting to your dashboard...' };
  if (onboardingComplete) return { path: '/app', welcome: 'Welcome back to Spark! Redirecting to your dashboard...' };
  if (target === 'ditl-welcome') return { path: '/onboarding', welcome: 'Welcome! Redirecting to your onboarding...' };
  if (target) return { path: `/${target}`, welcome: 'Welcome! Redirecting you now...' };
  return { path: '/onboarding', welcome: 'Welcome! Redirecting to your onboarding...' };
}

/** Where the signed-in card's Continue goes (docs/product.md §4: sign-in screen redirect). */
export function destinationForSignedInUser(context: SignedInContext): string {
  if (isCoach(context.user)) return '/coach';
  return context.onboardingComplete ? '/app' : '/onboarding';
}
