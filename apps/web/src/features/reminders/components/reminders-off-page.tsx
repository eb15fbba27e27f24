import { useMutation } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { failureMessage } from '../../../api/client';
import { useFragmentToken } from '../../../lib/use-fragment-token';
import { usePageMeta } from '../../../lib/use-page-meta';
import { Button } from '../../../ui/button';
import { Card } from '../../../ui/card';
import { AuthLayout } from '../../auth/components/auth-layout';
import { remindersApi } from '../api/reminders-api';
import { ErrorText } from '../../../ui/error-text';

/** /reminders/off: the reminder e-mail's "turn off" link. Opening it changes nothing; the click does. */
export default function RemindersOffPage() {
  usePageMeta({ title: 'Turn off reminders', description: 'Stop the daily spark reminders.', path: '/reminders/off' });
  const token = useFragmentToken();
  const off = useMutation({ mutationFn: () => remindersApi.unsubscribe(token ?? '') });
  return (
    <AuthLayout>
      <Card className="p-6 sm:p-8">
        {off.isSuccess ? (
          <div role="status">
            <h1 className="text-2xl font-bold text-ink-950">Reminders are off</h1>
            <p className="mt-3 text-slate-600">You will get no more reminder e-mails. Turn them back on any time from your home screen.</p>
            <Link to="/app" className="mt-6 inline-block font-semibold text-spark-700 hover:underline">
              Open Spark
            </Link>
          </div>
        ) : (
          <div>
            <h1 className="text-2xl font-bold text-ink-950">Turn off daily reminders?</h1>
            <p className="mt-3 text-slate-600">You will stop getting the reminder on days without a spark. Your streak and sparks stay as they are.</p>
            <Button className="mt-6 w-full" disabled={!token || off.isPending} onClick={() => off.mutate()}>
              {off.isPending ? 'Turning off…' : 'Turn off reminders'}
            </Button>
            {(off.isError || !token) && (
              <ErrorText className="mt-4">{token ? failureMessage(off.error) : 'This link is incomplete. Open it from your e-mail again.'}</ErrorText>
            )}
          </div>
        )}
      </Card>
    </AuthLayout>
  );
}
