import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { ApiError } from '../../../api/client';
import { usePageMeta } from '../../../lib/use-page-meta';
import { Button } from '../../../ui/button';
import { Card } from '../../../ui/card';
import { AuthLayout } from '../../auth/components/auth-layout';
import { remindersApi } from '../api/reminders-api';

/** /reminders/off: the reminder e-mail's "turn off" link. Opening it changes nothing; the click does. */
export default function RemindersOffPage() {
  usePageMeta({ title: 'Turn off reminders', description: 'Stop the daily spark reminders.', path: '/reminders/off' });
  const location = useLocation();
  const navigate = useNavigate();
  const [token] = useState(() => new URLSearchParams(location.hash.replace(/^#/, '')).get('token'));
  useEffect(() => {
    if (location.hash) void navigate({ hash: '' }, { replace: true });
  }, [location.hash, navigate]);
  const off = useMutation({ mutationFn: () => remindersApi.unsubscribe(token ?? '') });
  const failure = off.error instanceof ApiError && off.error.status !== 0 ? off.error.message : 'Could not reach Spark. Please try again when you are online.';

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
              <p className="mt-4 text-sm text-red-700" role="alert">
                {token ? failure : 'This link is incomplete. Open it from your e-mail again.'}
              </p>
            )}
          </div>
        )}
      </Card>
    </AuthLayout>
  );
}
