import type { AuthUser, Session } from '@spark/contracts';
import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { signOutEverywhere as endSessionsEverywhere, signOut as endThisSession } from '../auth/sign-out';
import { currentSessionState, loadingSessionState, restoreSession, subscribeToSession, type SessionStatus } from './session-store';

export interface SessionHandle {
  status: SessionStatus;
  /** Signed out only because Spark could not be reached: the session is being restored in the background. */
  unreachable: boolean;
  user: AuthUser | null;
  session: Session | null;
  /** Signs out on the server and in this browser, then opens / (also when the server fails). */
  signOut: () => Promise<void>;
  /** Signs out on every device, this one included, then opens /; throws, staying signed in, when the server fails. */
  signOutEverywhere: () => Promise<void>;
}

/** The signed-in user, restored from the refresh cookie on first use; no provider needed. */
export function useSession(): SessionHandle {
  // A prerendered page shows the check in progress; the browser takes over from there.
  const { status, session, unreachable = false } = useSyncExternalStore(subscribeToSession, currentSessionState, () => loadingSessionState);

  useEffect(() => {
    void restoreSession();
  }, []);

  const signOut = useCallback(async () => {
    await endThisSession();
    // A full page load, not a client-side navigation: this user's data in memory (the query cache) goes with it.
    // signOut has cleared their localStorage keys and the service worker caches no API answer; only sparks still
    // waiting to upload stay on the device (IndexedDB), shown to their owner alone.
    window.location.assign('/');
  }, []);

  const signOutEverywhere = useCallback(async () => {
    await endSessionsEverywhere();
    window.location.assign('/');
  }, []);

  return { status, unreachable, user: session?.user ?? null, session, signOut, signOutEverywhere };
}
