import { Navigate, useSearchParams } from 'react-router-dom';
import { readStored, storageKeys } from '../../../lib/storage-keys';
import { usePageMeta } from '../../../lib/use-page-meta';
import { Button, ButtonLink } from '../../../ui/button';
import { Card } from '../../../ui/card';
import { Spinner } from '../../../ui/spinner';
import { OnboardingFrame } from '../../onboarding/components/onboarding-frame';
import { RequireSession, useSession } from '../../session';
import { type DitlView, useDitlGeneration } from '../hooks/use-ditl-generation';
import { useDitlRequestRetry } from '../hooks/use-ditl-request-retry';

// Spec section 8, word for word.
export const ditlMessages = {
  'no-generation': 'Your personalized DITL is being prepared and will arrive via email soon!',
  'timed-out': "We're still working on your DITL! You'll receive it via email within the hour.",
  failed: 'We encountered an issue creating your DITL. No worries - you can continue to the app!',
} as const;

function DitlBody({ view }: { view: DitlView }) {
  switch (view.state) {
    case 'generating':
      return (
        <div className="flex flex-col items-center gap-4 py-10 text-center" aria-live="polite">
          <Spinner className="scale-150 text-spark-600" label="Generating your Day in the Life" />
          <p className="text-lg font-semibold text-ink-950">Creating your personalized Day in the Life...</p>
          {view.progress !== null && (
            <div className="w-full max-w-xs space-y-1.5">
              <div className="h-2 overflow-hidden rounded-full bg-ink-100">
                <div className="h-full rounded-full bg-spark-500 transition-all" style={{ width: `${view.progress}%` }} />
              </div>
              <p className="text-sm font-medium text-slate-600" data-testid="ditl-progress">
                {view.progress}% complete
              </p>
            </div>
          )}
          <p className="max-w-sm text-sm text-slate-500">This usually takes 30-60 seconds. You can keep this page open or continue to the app.</p>
        </div>
      );
    case 'ready':
      return (
        <iframe
          title="Your Day in the Life presentation"
          srcDoc={view.html}
          // No allow-scripts and no allow-same-origin: the page is inert and cannot reach the app.
          sandbox=""
          className="h-[70vh] min-h-[480px] w-full rounded-xl bg-spark-50 ring-1 ring-slate-200"
        />
      );
    default:
      return (
        <p role="status" className="rounded-xl bg-ink-50 px-5 py-6 text-center text-ink-900">
          {ditlMessages[view.state]}
        </p>
      );
  }
}

function DitlWelcome({ userId }: { userId: string }) {
  const [params] = useSearchParams();
  const requestWaiting = useDitlRequestRetry(userId);
  // The e-mailed link names its generation; otherwise the one requested at the end of onboarding, once answered.
  const generationId = params.get('generationId') ?? readStored(storageKeys.ditlGenerationId);
  const view = useDitlGeneration(generationId, requestWaiting);
  return (
    <OnboardingFrame wide>
      <div className="mb-6 text-center">
        <p className="text-sm font-semibold tracking-wide text-spark-700 uppercase">Welcome to The Spark</p>
        <h1 className="mt-1 font-display text-3xl text-ink-950 sm:text-4xl">Your Day in the Life</h1>
        <p className="mx-auto mt-2 max-w-xl text-slate-600">
          A preview of one day in your evolution: the habits, the sparks to capture and your weekly rhythm.
        </p>
      </div>
      <Card className="p-2 sm:p-6">
        <DitlBody view={view} />
      </Card>
      <div className="mt-6 flex flex-col items-center gap-3 sm:flex-row sm:justify-center">
        <Button variant="secondary" size="lg" disabled>
          Get Full DITL (Coming Soon)
        </Button>
        <ButtonLink to="/app" size="lg">
          Continue to App
        </ButtonLink>
      </div>
      <p className="mt-4 text-center">
        <a href="/app" className="text-sm font-medium text-ink-700 underline underline-offset-4 hover:text-ink-900">
          Skip for now
        </a>
      </p>
    </OnboardingFrame>
  );
}

function SignedInWelcome() {
  const { user } = useSession();
  return user && <DitlWelcome userId={user.id} />;
}

export default function DitlWelcomePage() {
  usePageMeta({ title: 'Your Day in the Life', description: 'Your personalised Day in the Life presentation.', path: '/ditl-welcome' });
  // Spec: /ditl-welcome is reachable only once onboarding is marked complete.
  if (readStored(storageKeys.onboardingComplete) === null) return <Navigate to="/onboarding" replace />;
  return (
    <RequireSession>
      <SignedInWelcome />
    </RequireSession>
  );
}
