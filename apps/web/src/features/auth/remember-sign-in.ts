import type { AuthUser, Session } from '@spark/contracts';
import { readStored, storageKeys, writeStored } from '../../lib/storage-keys';
import { unsubscribeThisDevice } from '../reminders/push-support';
import { forgetPendingSignOut } from '../session/pending-sign-out';
import { startSession } from '../session/session-store';
import type { SignedInContext } from './sign-in-routing';
import { signOutLocally } from './sign-out-locally';

/** Whether onboarding is done: the local flag the screens read (docs/product.md §3, local storage keys), or the server's record. */
export const hasFinishedOnboarding = (user: AuthUser) =>
  readStored(storageKeys.onboardingComplete) !== null || user.user_metadata.onboarding_completed_at !== null;

export const signedInContext = (user: AuthUser): SignedInContext => ({ user, onboardingComplete: hasFinishedOnboarding(user) });

/**
 * Holds a freshly redeemed session and stores what later screens read (docs/product.md §3, local storage keys). On a
 * browser the last person left without signing out, what they left goes first (their finished onboarding, goal, home
 * and reminders), so the next person starts as themselves.
 */
export function rememberSignIn(session: Session, options: { approved: boolean }): void {
  const lastPerson = readStored(storageKeys.userEmail);
  if (lastPerson !== null && lastPerson !== session.user.email) {
    signOutLocally();
    void unsubscribeThisDevice();
  }
  forgetPendingSignOut();
  startSession(session);
  writeStored(storageKeys.userEmail, session.user.email);
  writeStored(storageKeys.magicLinkAuth, 'true');
  if (options.approved) writeStored(storageKeys.coachApproved, 'true');
  // Onboarded on another device: /app reads the local flag, the server is the source of truth.
  if (session.user.user_metadata.onboarding_completed_at) writeStored(storageKeys.onboardingComplete, 'true');
}
