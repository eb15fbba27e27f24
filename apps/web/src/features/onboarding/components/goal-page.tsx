import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { readStored, storageKeys, writeStored } from '../../../lib/storage-keys';
import { usePageMeta } from '../../../lib/use-page-meta';
import { Button } from '../../../ui/button';
import { Card } from '../../../ui/card';
import { textareaClasses } from './form-field';
import { OnboardingFrame } from './onboarding-frame';

// Five examples exist; three are shown at a time, picked once per visit.
const goalExamples = [
  'Lose 15 pounds and keep it off by building a daily walking habit',
  'Sleep 7+ hours a night and wake up with energy for my kids',
  'Run my first 10K without stopping',
  'Stop stress-snacking at work and cook dinner four nights a week',
  'Get strong enough to do 10 push-ups and carry groceries with ease',
];

export default function GoalPage() {
  usePageMeta({ title: 'Your goal', description: 'What sparked your transformation?', path: '/goal' });
  const navigate = useNavigate();
  const [goal, setGoal] = useState(() => readStored(storageKeys.userGoal) ?? '');
  const [examples] = useState(() => [...goalExamples].sort(() => Math.random() - 0.5).slice(0, 3));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!goal.trim()) return;
    writeStored(storageKeys.userGoal, goal.trim());
    void navigate('/confirmation');
  };

  return (
    <OnboardingFrame>
      <Card className="p-6 sm:p-8">
        <form onSubmit={submit} className="space-y-6">
          <div>
            <p className="text-sm font-semibold tracking-wide text-spark-700 uppercase">One last thing</p>
            <label htmlFor="goal" className="mt-1 block font-display text-3xl text-ink-950">
              What Sparked your Transformation?
            </label>
          </div>
          <textarea
            id="goal"
            value={goal}
            onChange={(event) => setGoal(event.target.value)}
            className={textareaClasses}
            placeholder="Describe the change you want to make..."
            autoFocus
          />
          <div className="space-y-2">
            <p className="text-sm font-semibold text-slate-700">Need inspiration? Tap one:</p>
            <ul className="space-y-2">
              {examples.map((example) => (
                <li key={example}>
                  <button
                    type="button"
                    onClick={() => setGoal(example)}
                    className="w-full rounded-xl bg-spark-50 px-4 py-2.5 text-left text-sm text-ink-900 ring-1 ring-spark-200 hover:bg-spark-100"
                  >
                    {example}
                  </button>
                </li>
              ))}
            </ul>
          </div>
          <Button type="submit" size="lg" className="w-full" disabled={!goal.trim()}>
            Continue
          </Button>
        </form>
      </Card>
    </OnboardingFrame>
  );
}
