import { useMutation } from '@tanstack/react-query';
import { AskFirst } from '../../../ui/ask-first';
import { useSession } from '../../session';

/** "Sign out on every device", for a lost phone or a computer left signed in: asks first, then ends every session. */
export function SignOutEverywhereSection() {
  const { signOutEverywhere } = useSession();
  const end = useMutation({ mutationFn: signOutEverywhere });
  return (
    <div className="mt-5 border-t border-slate-100 pt-4" data-testid="sign-out-everywhere">
      <AskFirst
        opener={{ label: 'Sign out on every device', className: 'text-sm font-semibold text-ink-700 hover:underline' }}
        question="This signs you out on every phone and computer where you use Spark, this one included. Sparks waiting to upload on another device stay there until you sign in on it again."
        confirm={{ label: 'Sign out everywhere', busyLabel: 'Signing out…', variant: 'secondary' }}
        busy={end.isPending}
        onConfirm={() => end.mutate()}
        error={end.error}
      />
    </div>
  );
}
