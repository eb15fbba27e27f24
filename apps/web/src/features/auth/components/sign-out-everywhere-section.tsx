import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { failureMessage } from '../../../api/client';
import { AskFirst } from '../../../ui/ask-first';
import { Button } from '../../../ui/button';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { useSession } from '../../session';
import { ErrorText } from '../../../ui/error-text';

const whatItDoes = 'This signs you out on every phone and computer where you use Spark, this one included.';

const useSignOutEverywhere = () => useMutation({ mutationFn: useSession().signOutEverywhere });

/** The client home's "Sign out on every device", for a lost phone or a computer left signed in: asked about in place. */
export function SignOutEverywhereSection() {
  const end = useSignOutEverywhere();
  return (
    <div className="mt-5 border-t border-slate-100 pt-4" data-testid="sign-out-everywhere">
      <AskFirst
        opener={{ label: 'Sign out on every device', className: 'text-sm font-semibold text-ink-700 hover:underline' }}
        question={`${whatItDoes} Sparks waiting to upload on another device stay there until you sign in on it again.`}
        confirm={{ label: 'Sign out everywhere', busyLabel: 'Signing out…', variant: 'secondary' }}
        busy={end.isPending}
        onConfirm={() => end.mutate()}
        error={end.error}
      />
    </div>
  );
}

/** The coach dashboard's "Sign out everywhere", beside Sign Out: asked about in a dialog. */
export function SignOutEverywhereButton() {
  const end = useSignOutEverywhere();
  const [asking, setAsking] = useState(false);
  return (
    <>
      <Button variant="inverse" onClick={() => setAsking(true)}>
        Sign out everywhere
      </Button>
      {asking && (
        <ConfirmDialog
          title="Sign out on every device?"
          confirmLabel="Sign out everywhere"
          pendingLabel="Signing out…"
          pending={end.isPending}
          onConfirm={() => end.mutate()}
          onClose={() => setAsking(false)}
        >
          <p className="text-slate-600">{whatItDoes} Use it when a device you signed in on is lost or no longer yours.</p>
          {end.isError && <ErrorText className="mt-3">{failureMessage(end.error)}</ErrorText>}
        </ConfirmDialog>
      )}
    </>
  );
}
