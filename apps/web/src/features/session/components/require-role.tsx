import type { UserRole } from '@spark/contracts';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useSession } from '../use-session';
import { AccessDenied } from './access-denied';
import { SessionLoading } from './session-loading';

interface RequireSessionProps {
  children: ReactNode;
  /** Where a visitor without a session goes (the coach dashboard sends them to /interest). */
  signedOutTo?: string;
}

/** Renders children only for a signed-in user; others are sent to `signedOutTo`. */
export function RequireSession({ children, signedOutTo = '/signin' }: RequireSessionProps) {
  const { status } = useSession();
  const location = useLocation();
  if (status === 'loading') return <SessionLoading />;
  if (status === 'signed-out') return <Navigate to={signedOutTo} replace state={{ from: location.pathname }} />;
  return children;
}

/** Like RequireSession, and a signed-in user of another role sees "Access Denied". */
export function RequireRole({ roles, children, signedOutTo }: RequireSessionProps & { roles: readonly UserRole[] }) {
  const { user } = useSession();
  return <RequireSession signedOutTo={signedOutTo}>{user && roles.includes(user.user_metadata.role) ? children : <AccessDenied />}</RequireSession>;
}
