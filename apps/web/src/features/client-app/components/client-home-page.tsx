import { useEffect, useSyncExternalStore } from 'react';
import { Navigate } from 'react-router-dom';
import { ButtonLink } from '../../../ui/button';
import { Card } from '../../../ui/card';
import { preloadToasts } from '../../../ui/toaster';
import { readStored, storageKeys } from '../../../lib/storage-keys';
import { useDitlRequestInBackground } from '../../ditl/hooks/use-ditl-request-retry';
import { useSession } from '../../session';
import { SessionLoading } from '../../session/components/session-loading';
import { readHomeSnapshot, useHome } from '../hooks/use-home';
import { useOutbox } from '../hooks/use-outbox';
import { registerServiceWorker } from '../offline/register-service-worker';
import { ClientHome } from './client-home';

const subscribeToNetwork = (listener: () => void) => {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
};
const useOnline = () => useSyncExternalStore(subscribeToNetwork, () => navigator.onLine);

/** /app: needs the onboarding-complete flag; opens from the last snapshot when the network is gone. */
export default function ClientHomePage() {
  const { status, unreachable, user, signOut } = useSession();
  const online = useOnline();
  useEffect(registerServiceWorker, []);
  // The app toasts while offline (a spark kept on the device), when the toaster's chunk could not load.
  useEffect(preloadToasts, []);
  if (readStored(storageKeys.onboardingComplete) === null) return <Navigate to="/interest" replace />;
  if (status === 'loading') return <SessionLoading />;
  const snapshot = readHomeSnapshot();
  const signOutFromApp = () => void signOut();
  // One element type in one place for both kinds of home, keyed by whose it is: when the session comes back, the home
  // goes on (a capture being written stays open) unless it is another person's.
  if (user)
    return (
      <SignedInHome
        key={user.id}
        userId={user.id}
        fullName={user.user_metadata.full_name}
        goal={user.user_metadata.transformation_goal}
        online={online}
        signedIn
        onSignOut={signOutFromApp}
      />
    );
  // The session could not be restored, with no network or with Spark out of reach: the device's last data still opens.
  if ((!online || unreachable) && snapshot)
    return (
      <SignedInHome
        key={snapshot.userId}
        userId={snapshot.userId}
        fullName={snapshot.fullName}
        goal={snapshot.goal}
        online={false}
        signedIn={false}
        onSignOut={signOutFromApp}
      />
    );
  return <NotAuthenticated />;
}

interface SignedInHomeProps {
  userId: string;
  fullName: string | null;
  goal: string | null;
  online: boolean;
  /** False while the home opens from the device's data without a session. */
  signedIn: boolean;
  onSignOut: () => void;
}

function SignedInHome({ userId, fullName, goal, online, signedIn, onSignOut }: SignedInHomeProps) {
  const home = useHome({ userId, fullName, goal }, signedIn);
  const pending = useOutbox(userId);
  useDitlRequestInBackground(userId);
  // Unreachable with nothing saved yet: the home still opens, empty, and captures still queue.
  const data = home.data ?? (home.isError ? { progress: null, pinnedNote: null, restDays: null } : undefined);
  if (!data) return <SessionLoading />;
  return (
    <ClientHome
      userId={userId}
      fullName={fullName}
      goal={goal ?? readStored(storageKeys.userGoal)}
      progress={data.progress}
      pinnedNote={data.pinnedNote}
      restDays={data.restDays}
      pending={pending}
      offline={!online}
      onSignOut={onSignOut}
    />
  );
}

function NotAuthenticated() {
  return (
    <div className="flex min-h-dvh items-center justify-center bg-slate-50 px-5">
      <Card className="max-w-sm text-center">
        <h1 className="text-xl font-semibold text-ink-950">Not authenticated</h1>
        <p className="mt-2 text-slate-600">Please sign in to continue</p>
        <ButtonLink to="/signin?product=spark" className="mt-5 w-full">
          Sign in
        </ButtonLink>
      </Card>
    </div>
  );
}
