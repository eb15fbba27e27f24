import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Navigate, useNavigate } from 'react-router-dom';
import { ApiError } from '../../../api/client';
import { Button } from '../../../ui/button';
import { Card } from '../../../ui/card';
import { Spinner } from '../../../ui/spinner';
import { useSession } from '../../session';
import { coachApi, coachKeys } from '../api/coach-api';

function Verifying() {
  return (
    <div className="flex min-h-screen flex-col items-center justify-center gap-3 bg-slate-50 text-slate-600">
      <Spinner />
      <p>Verifying access...</p>
    </div>
  );
}

function Denied({ message, hint }: { message: string; hint?: boolean }) {
  const navigate = useNavigate();
  return (
    <div className="flex min-h-screen items-center justify-center bg-slate-50 px-4">
      <Card className="w-full max-w-md text-center">
        <h1 className="text-2xl font-bold text-ink-950">Access Denied</h1>
        <p className="mt-3 text-slate-600">{message}</p>
        {hint && <p className="mt-2 text-sm text-slate-500">If you believe you should have access, please contact your administrator.</p>}
        <Button variant="secondary" className="mt-6" onClick={() => void navigate(-1)}>
          Go Back
        </Button>
      </Card>
    </div>
  );
}

/** The /coach door: the session's role first, then the server's own answer (the API enforces the same). */
export function CoachGuard({ children }: { children: ReactNode }) {
  const { status, user } = useSession();
  const allowedRole = user?.user_metadata.role === 'coach' || user?.user_metadata.role === 'admin';
  const check = useQuery({ queryKey: coachKeys.overview(), queryFn: coachApi.overview, enabled: status === 'signed-in' && allowedRole, retry: 1 });
  if (status === 'loading') return <Verifying />;
  if (status === 'signed-out') return <Navigate to="/interest" replace />;
  if (!allowedRole) return <Denied message="You don't have permission to access the Coach Dashboard." hint />;
  if (check.isPending) return <Verifying />;
  if (check.isError) {
    const forbidden = check.error instanceof ApiError && check.error.status === 403;
    return forbidden ? <Denied message="You don't have permission to access the Coach Dashboard." hint /> : <Denied message="Unable to verify admin access." />;
  }
  return children;
}
