import { Icon } from '../../../ui/icon';

interface TimelineProps {
  role: 'client' | 'coach';
  email: string;
}

export function ThankYouTimeline({ role, email }: TimelineProps) {
  const steps = [
    { title: 'Interest Submitted', text: `We received your request for ${email}.`, done: true },
    { title: "We'll Reach Out", text: 'A member of our team will contact you within 48-72 hours.', done: false },
    role === 'coach'
      ? { title: 'Start Coaching', text: 'Once approved, you get a sign-in link to set up your coach dashboard.', done: false }
      : { title: 'Your Transformation Begins', text: 'Once approved, a one-time link opens your onboarding and first evolution.', done: false },
  ];
  return (
    <ol className="space-y-6" aria-label="What happens next">
      {steps.map((step, index) => (
        <li key={step.title} className="flex gap-4">
          <span
            className={
              step.done
                ? 'inline-flex size-10 shrink-0 items-center justify-center rounded-full bg-spark-500 text-ink-950'
                : 'inline-flex size-10 shrink-0 items-center justify-center rounded-full bg-ink-100 font-bold text-ink-800'
            }
          >
            {step.done ? <Icon name="check" className="size-5" /> : index + 1}
          </span>
          <div>
            <h3 className="font-semibold text-ink-950">{step.title}</h3>
            <p className="mt-1 text-sm text-slate-600">{step.text}</p>
          </div>
        </li>
      ))}
    </ol>
  );
}
