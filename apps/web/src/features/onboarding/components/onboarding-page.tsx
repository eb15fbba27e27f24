import { type FormEvent, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { usePageMeta } from '../../../lib/use-page-meta';
import { Button } from '../../../ui/button';
import { Card } from '../../../ui/card';
import { toast } from '../../../ui/toaster';
import { RequireSession, useSession } from '../../session';
import { useFinishOnboarding } from '../hooks/use-finish-onboarding';
import { loadDraft, type OnboardingDraft, saveDraft } from '../onboarding-draft';
import { type FieldErrors, firstIncompleteStep, onboardingSteps, toAnswers, validateStep } from '../onboarding-steps';
import { OnboardingFrame } from './onboarding-frame';
import { StepFields } from './onboarding-step-fields';

const lastStep = onboardingSteps.length - 1;
/** One message however often Complete Onboarding is pressed while something is missing. */
const INCOMPLETE_TOAST = 'onboarding-incomplete';

// The step lives in the URL (?step=2), so the browser's back and forward move between steps.
const stepFrom = (value: string | null) => {
  const step = Number(value ?? '1') - 1;
  return Number.isInteger(step) && step >= 0 && step <= lastStep ? step : 0;
};

function OnboardingSteps({ userId }: { userId: string }) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const step = stepFrom(params.get('step'));
  const [draft, setDraft] = useState<OnboardingDraft>(() => loadDraft(userId));
  // Errors belong to the step they were found on: another step (Next, Back, the browser's back button) shows none.
  const [found, setFound] = useState<{ step: number; errors: FieldErrors }>({ step, errors: {} });
  const errors = found.step === step ? found.errors : {};
  const finish = useFinishOnboarding(userId);

  const change = (changes: Partial<OnboardingDraft>) => {
    const next = { ...draft, ...changes };
    setDraft(next);
    saveDraft(userId, next);
  };
  const goTo = (target: number) => void navigate(`/onboarding?step=${target + 1}`);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (step < lastStep) {
      const stepErrors = validateStep(step, draft);
      setFound({ step, errors: stepErrors });
      if (Object.keys(stepErrors).length === 0) goTo(step + 1);
      return;
    }
    // The whole form is checked at the end: an earlier step left blank (a draft restored, an answer cleared after going
    // back) is opened with its errors showing, so the client sees what to fill in.
    const incomplete = firstIncompleteStep(draft);
    if (incomplete !== -1) {
      setFound({ step: incomplete, errors: validateStep(incomplete, draft) });
      toast.error('Please fill out all required fields', {
        id: INCOMPLETE_TOAST,
        description: 'We need a bit more information to create your personalized plan',
      });
      if (incomplete !== step) goTo(incomplete);
      return;
    }
    setFound({ step, errors: {} });
    finish.mutate(toAnswers(draft), {
      onSuccess: () => void navigate('/ditl-welcome'),
      onError: () => toast.error('Something went wrong', { description: 'Please try again or contact support if the issue persists' }),
    });
  };

  const { title, description } = onboardingSteps[step] ?? onboardingSteps[0];
  const percent = Math.round(((step + 1) / onboardingSteps.length) * 100);
  return (
    <OnboardingFrame>
      <div className="mb-6 space-y-2">
        <div className="flex items-center justify-between text-sm font-medium text-slate-600">
          <span>
            Step {step + 1} of {onboardingSteps.length}
          </span>
          <span>About 4 minutes</span>
        </div>
        <div
          className="h-2 overflow-hidden rounded-full bg-ink-100"
          role="progressbar"
          aria-valuenow={percent}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-label="Onboarding progress"
        >
          <div className="h-full rounded-full bg-spark-500 transition-all" style={{ width: `${percent}%` }} />
        </div>
      </div>
      <Card className="p-6 sm:p-8">
        <form noValidate onSubmit={submit} className="space-y-6">
          <div>
            <h1 className="font-display text-3xl text-ink-950">{title}</h1>
            <p className="mt-1 text-slate-600">{description}</p>
          </div>
          <StepFields step={step} draft={draft} errors={errors} onChange={change} />
          <div className="flex items-center justify-between gap-3 border-t border-slate-100 pt-5">
            <Button variant="ghost" onClick={() => goTo(step - 1)} disabled={step === 0 || finish.isPending}>
              Back
            </Button>
            <Button type="submit" disabled={finish.isPending}>
              {step < lastStep ? 'Continue' : finish.isPending ? 'Creating your plan...' : 'Complete Onboarding'}
            </Button>
          </div>
        </form>
      </Card>
    </OnboardingFrame>
  );
}

export default function OnboardingPage() {
  usePageMeta({ title: 'Onboarding', description: 'Four short steps to personalise your evolution.', path: '/onboarding' });
  const { user } = useSession();
  return (
    <RequireSession>
      {/* Keyed by the user: a sign-in as someone else in this tab starts from their own draft. */}
      {user && <OnboardingSteps key={user.id} userId={user.id} />}
    </RequireSession>
  );
}
