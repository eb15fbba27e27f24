import { primaryChallenges, type PrimaryChallenge } from '@spark/contracts';

const challengeIds = Object.keys(primaryChallenges) as PrimaryChallenge[];

interface ChallengeQuestionProps {
  onAnswer: (challenge: PrimaryChallenge) => void;
  disabled: boolean;
}

export function ChallengeQuestion({ onAnswer, disabled }: ChallengeQuestionProps) {
  return (
    <fieldset className="rounded-2xl bg-spark-50 p-6 ring-1 ring-spark-200">
      <legend className="sr-only">One quick question</legend>
      <h2 className="text-lg font-semibold text-ink-950">What's your biggest challenge right now?</h2>
      <p className="mt-1 text-sm text-slate-600">Your answer helps your coach prepare before you meet.</p>
      <div className="mt-5 grid gap-3 sm:grid-cols-2">
        {challengeIds.map((id) => (
          <button
            key={id}
            type="button"
            disabled={disabled}
            onClick={() => onAnswer(id)}
            className="rounded-xl bg-white px-4 py-3 text-left font-medium text-ink-950 shadow-soft ring-1 ring-slate-200 hover:ring-spark-400 focus-visible:outline-3 focus-visible:outline-spark-500 disabled:opacity-60"
          >
            {primaryChallenges[id]}
          </button>
        ))}
      </div>
    </fieldset>
  );
}
