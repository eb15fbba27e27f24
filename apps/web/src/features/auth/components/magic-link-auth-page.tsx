import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { ApiError } from '../../../api/client';
import { usePageMeta } from '../../../lib/use-page-meta';
import { fetchLinkOwner, redeemSignIn } from '../api/auth-api';
import { type EmailedLink, readEmailedLink, searchWithoutToken } from '../emailed-link';
import { rememberSignIn, signedInContext } from '../remember-sign-in';
import { destinationAfterSignIn } from '../sign-in-routing';
import { AuthLayout } from './auth-layout';
import { MagicLinkStatus, type MagicLinkState } from './magic-link-status';

// Long enough to read the welcome, short enough not to feel stuck (docs/product.md: 1.5 s).
const redirectDelayMs = 1500;

export const magicLinkMessages = {
  sessionRefused: 'Authentication failed. Please try again or contact support.',
  noSession: 'No active session found. Please check your email and click the magic link again.',
  unexpected: 'An unexpected error occurred. Please try again.',
} as const;

// The server refused the token (used, expired, replaced): a session error. Anything else is unexpected.
const messageFor = (error: unknown) =>
  error instanceof ApiError && error.status >= 400 && error.status < 500 ? magicLinkMessages.sessionRefused : magicLinkMessages.unexpected;

/** One link's sign-in: whose it is, then the redemption on the person's click, then the redirect. */
function LinkSignIn({ link }: { link: EmailedLink }) {
  const navigate = useNavigate();
  const token = link.token ?? '';
  const owner = useQuery({
    queryKey: ['sign-in-link', token],
    queryFn: () => fetchLinkOwner({ token }),
    enabled: token !== '',
    retry: false,
    staleTime: Infinity,
  });
  const redeem = useMutation({
    mutationFn: () => redeemSignIn({ token }),
    onSuccess: (session) => rememberSignIn(session, { approved: link.approved }),
  });

  const state: MagicLinkState = (() => {
    if (!link.token) return { kind: 'error', message: magicLinkMessages.noSession };
    if (redeem.isSuccess) return { kind: 'success', destination: destinationAfterSignIn(signedInContext(redeem.data.user), link.next) };
    if (redeem.isError) return { kind: 'error', message: messageFor(redeem.error) };
    if (owner.isError) return { kind: 'error', message: messageFor(owner.error) };
    if (owner.isPending || redeem.isPending) return { kind: 'processing' };
    return { kind: 'confirm', email: owner.data.email, onContinue: () => redeem.mutate() };
  })();

  const destinationPath = state.kind === 'success' ? state.destination.path : null;
  useEffect(() => {
    if (!destinationPath) return;
    const timer = window.setTimeout(() => void navigate(destinationPath, { replace: true }), redirectDelayMs);
    return () => window.clearTimeout(timer);
  }, [destinationPath, navigate]);

  return <MagicLinkStatus state={state} />;
}

/**
 * /magic-link-auth: opening the link spends nothing. The page asks whose the link is and signs in
 * only when that person clicks, so a mail scanner that runs the page signs nobody in, and nobody is
 * signed into an account that is not theirs without seeing its address first.
 */
export default function MagicLinkAuthPage() {
  usePageMeta({ title: 'Signing you in', description: 'Completing your secure sign-in to Spark.', path: '/magic-link-auth' });
  const navigate = useNavigate();
  const location = useLocation();
  const [link, setLink] = useState(() => readEmailedLink(location.search, location.hash));
  // The token is kept in memory and leaves the address bar at once, so history, screen shares and
  // synced tabs never show it. A link opened over this page (only its fragment differs) is read too.
  const carriesToken = location.hash !== '' || new URLSearchParams(location.search).has('token');
  const opened = carriesToken ? readEmailedLink(location.search, location.hash) : undefined;
  if (opened && (opened.token !== link.token || opened.next !== link.next || opened.approved !== link.approved)) setLink(opened);
  useEffect(() => {
    if (carriesToken) void navigate({ search: searchWithoutToken(location.search), hash: '' }, { replace: true });
  }, [carriesToken, location.search, navigate]);

  return (
    <AuthLayout>
      <LinkSignIn key={link.token ?? ''} link={link} />
    </AuthLayout>
  );
}
