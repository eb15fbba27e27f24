import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { readStored, storageKeys, writeStored } from '../../../lib/storage-keys';
import { updateCurrentUser } from '../../auth/api/auth-api';
import { usePageMeta } from '../../../lib/use-page-meta';
import { Card } from '../../../ui/card';
import { Spinner } from '../../../ui/spinner';
import { OnboardingFrame } from './onboarding-frame';

/** Spec section 9: the confirmation screen waits 2.5 s before opening the app. */
export const CONFIRMATION_DELAY_MS = 2500;

export default function ConfirmationPage() {
  usePageMeta({ title: "You're All Set!", description: 'Your evolution starts now.', path: '/confirmation' });
  const navigate = useNavigate();

  useEffect(() => {
    const timer = setTimeout(() => {
      writeStored(storageKeys.onboardingComplete, 'true');
      // The server's record too, when someone is signed in; the local flag alone opens /app.
      const goal = readStored(storageKeys.userGoal);
      updateCurrentUser({ onboarding_completed_at: new Date().toISOString(), ...(goal ? { transformation_goal: goal } : {}) }).catch(() => undefined);
      void navigate('/app', { replace: true });
    }, CONFIRMATION_DELAY_MS);
    return () => clearTimeout(timer);
  }, [navigate]);

  return (
    <OnboardingFrame>
      <Card className="p-8 text-center sm:p-10">
        <div className="mx-auto flex size-16 items-center justify-center rounded-full bg-spark-100 text-3xl" aria-hidden="true">
          ✦
        </div>
        <h1 className="mt-5 font-display text-4xl text-ink-950">You're All Set!</h1>
        <p className="mt-3 text-slate-600">Your first evolution starts today. Opening your app...</p>
        <Spinner className="mt-6 text-spark-600" label="Opening your app" />
      </Card>
    </OnboardingFrame>
  );
}
