import { useMutation } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { failureMessage } from '../../../api/client';
import { useFragmentToken } from '../../../lib/use-fragment-token';
import { usePageMeta } from '../../../lib/use-page-meta';
import { Button } from '../../../ui/button';
import { Card } from '../../../ui/card';
import { signOut } from '../../auth/sign-out';
import { AuthLayout } from '../../auth/components/auth-layout';
import { accountDeletionApi } from '../api/account-deletion-api';
import { forgetSparksOf } from '../../client-app/offline/spark-outbox';
import { ErrorText } from '../../../ui/error-text';

/**
 * /account/delete: the e-mailed link's page. Opening it deletes nothing (a mail scanner may open it); the client
 * reads what goes and confirms with a click. The token leaves the address bar at once, as a sign-in link's does.
 */
export default function DeleteAccountPage() {
  usePageMeta({ title: 'Delete your account', description: 'Confirm deleting your Spark account.', path: '/account/delete' });
  const token = useFragmentToken();
  const confirm = useMutation({
    mutationFn: () => accountDeletionApi.confirm(token ?? ''),
    // The account is gone; this browser forgets its session, stored flags and the captures it still held of them before
    // it says so.
    onSuccess: async ({ userId }) => {
      await Promise.all([signOut().catch(() => false), forgetSparksOf(userId).catch(() => undefined)]);
    },
  });

  return (
    <AuthLayout>
      <Card className="p-6 sm:p-8">
        {confirm.isSuccess ? (
          <div role="status" data-testid="account-deleted">
            <h1 className="text-2xl font-bold text-ink-950">Your account is deleted</h1>
            <p className="mt-3 text-slate-600">
              You are signed out everywhere. Your sparks, notes, Day in the Life and history are being erased from every part of Spark; this takes a few
              minutes.
            </p>
            <p className="mt-3 font-mono text-xs text-slate-500">Reference {confirm.data.deletionId}</p>
            <Link to="/" className="mt-6 inline-block font-semibold text-spark-700 hover:underline">
              Back to Spark
            </Link>
          </div>
        ) : !token ? (
          <div role="alert">
            <h1 className="text-2xl font-bold text-ink-950">This link is incomplete</h1>
            <p className="mt-3 text-slate-600">Open the link from your e-mail again, or ask for a new one from your home screen.</p>
          </div>
        ) : (
          <div>
            <h1 className="text-2xl font-bold text-ink-950">Delete your Spark account?</h1>
            <p className="mt-3 text-slate-600">This permanently deletes:</p>
            <ul className="mt-2 list-disc space-y-1 pl-5 text-slate-600">
              <li>your profile and onboarding answers</li>
              <li>every spark, with its photo or file and note</li>
              <li>your coach's notes, your Day in the Life and your streak history</li>
            </ul>
            <p className="mt-3 text-slate-600">You will be signed out on every device. This cannot be undone.</p>
            <Button variant="danger" className="mt-6 w-full" disabled={confirm.isPending} onClick={() => confirm.mutate()}>
              {confirm.isPending ? 'Deleting…' : 'Delete my account permanently'}
            </Button>
            <Link to="/app" className="mt-4 block text-center text-sm font-semibold text-slate-600 hover:underline">
              Keep my account
            </Link>
            {confirm.isError && <ErrorText className="mt-4">{failureMessage(confirm.error)}</ErrorText>}
          </div>
        )}
      </Card>
    </AuthLayout>
  );
}
