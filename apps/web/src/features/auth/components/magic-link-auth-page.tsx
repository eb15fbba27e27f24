import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { ApiError } from '../../../api/client';
import { usePageMeta } from '../../../lib/use-page-meta';
import { redeemLinkOnce } from '../redeem-link-once';
import { rememberSignIn, signedInContext } from '../remember-sign-in';
import { destinationAfterSignIn } from '../sign-in-routing';
import { AuthLayout } from './auth-layout';
import { MagicLinkStatus, type MagicLinkState } from './magic-link-status';

// Long enough to read the welcome, short enough not to feel stuck (spec: 1.5 s).
const redirectDelayMs = 1500;

export const magicLinkMessages = {
  sessionRefused: 'Authentication failed. Please try again or contact support.',
  noSession: 'No active session found. Please check your email and click the magic link again.',
  unexpected: 'An unexpected error occurred. Please try again.',
} as const;

// The server refused the token (used, expired, replaced): a session error. Anything else is unexpected.
const messageFor = (error: unknown) =>
  error instanceof ApiError && error.status >= 400 && error.status < 500 ? magicLinkMessages.sessionRefused : magicLinkMessages.unexpected;

export default function MagicLinkAuthPage() {
  usePageMeta({ title: 'Signing you in', description: 'Completing your secure sign-in to Spark.', path: '/magic-link-auth' });
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token');
  const next = searchParams.get('next');
  const approved = searchParams.get('approved') === 'true';
  const [state, setState] = useState<MagicLinkState>(() =>
    token ? { kind: 'processing' } : { kind: 'error', message: magicLinkMessages.noSession },
  );

  useEffect(() => {
    if (!token) return;
    let current = true;
    redeemLinkOnce(token).then(
      (session) => {
        rememberSignIn(session, { approved });
        if (current) setState({ kind: 'success', destination: destinationAfterSignIn(signedInContext(session.user), next) });
      },
      (error: unknown) => {
        if (current) setState({ kind: 'error', message: messageFor(error) });
      },
    );
    return () => {
      current = false;
    };
  }, [token, next, approved]);

  const destinationPath = state.kind === 'success' ? state.destination.path : null;
  useEffect(() => {
    if (!destinationPath) return;
    const timer = window.setTimeout(() => void navigate(destinationPath, { replace: true }), redirectDelayMs);
    return () => window.clearTimeout(timer);
  }, [destinationPath, navigate]);

  return (
    <AuthLayout>
      <MagicLinkStatus state={state} />
    </AuthLayout>
  );
}
