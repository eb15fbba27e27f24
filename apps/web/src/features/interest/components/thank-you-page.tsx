import type { PrimaryChallenge } from '@spark/contracts';
import { useEffect, useState } from 'react';
import { Navigate, useNavigate } from 'react-router-dom';
import { readStored, storageKeys } from '../../../lib/storage-keys';
import { usePageMeta } from '../../../lib/use-page-meta';
import { ButtonLink } from '../../../ui/button';
import { Card } from '../../../ui/card';
import { PublicLayout } from '../../../ui/layout/public-layout';
import { useSetChallenge } from '../hooks/use-set-challenge';
import { ChallengeQuestion } from './challenge-question';
import { ThankYouTimeline } from './thank-you-timeline';

// Long enough to read the toast, short enough not to feel stuck (docs/product.md: 1.5 s).
const redirectDelayMs = 1500;

export default function ThankYouPage() {
  usePageMeta({ title: 'Thank you', description: 'Your interest in Spark is in. Here is what happens next.', path: '/interest/thank-you' });
  const navigate = useNavigate();
  const [lead] = useState(() => ({ email: readStored(storageKeys.leadEmail), role: readStored(storageKeys.userRole) }));
  const [answered, setAnswered] = useState(false);
  const setChallenge = useSetChallenge();

  useEffect(() => {
    if (!answered) return;
    const timer = window.setTimeout(() => void navigate('/'), redirectDelayMs);
    return () => window.clearTimeout(timer);
  }, [answered, navigate]);

  if (!lead.email || !lead.role) return <Navigate to="/interest" replace />;

  const answer = (challenge: PrimaryChallenge) => {
    setChallenge.mutate(challenge, { onSettled: () => setAnswered(true) });
  };
  const role = lead.role === 'coach' ? 'coach' : 'client';

  return (
    <PublicLayout>
      <div className="bg-slate-50 px-4 py-16 sm:px-6 sm:py-24">
        <Card className="mx-auto max-w-2xl p-6 sm:p-10">
          <p className="text-sm font-semibold tracking-widest text-spark-700 uppercase">You're on the list</p>
          <h1 className="mt-2 text-3xl font-bold tracking-tight text-ink-950">Thank you for your interest!</h1>
          <p className="mt-3 text-slate-600">Check your inbox: we just sent a confirmation to {lead.email}.</p>
          <div className="mt-8">
            <ThankYouTimeline role={role} email={lead.email} />
          </div>
          {role === 'client' && !answered && (
            <div className="mt-10">
              <ChallengeQuestion onAnswer={answer} disabled={setChallenge.isPending} />
            </div>
          )}
          <ButtonLink to="/" size="lg" className="mt-10 w-full sm:w-auto">
            What Comes Next?
          </ButtonLink>
        </Card>
      </div>
    </PublicLayout>
  );
}
