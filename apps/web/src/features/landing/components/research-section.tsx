import { Link } from 'react-router-dom';
import { Icon } from '../../../ui/icon';
import { Section } from '../../../ui/layout/section';

const findings = [
  'Habits formed in short, fixed cycles with scheduled reflection held longer than open-ended goals.',
  'Capturing small daily evidence of progress kept participants engaged through the hard middle weeks.',
  'A coach who saw real behavioural data could intervene earlier and with more precision.',
];

export function ResearchSection() {
  return (
    <Section
      id="research"
      tone="dark"
      eyebrow="The Research"
      title="Built on a doctoral study with real people"
      intro="Spark did not start as an app. It started as a doctoral dissertation study of how adults actually build and keep habits, run with real participants over full evolution cycles, by a founder who is also a certified trainer."
    >
      <div className="grid gap-10 lg:grid-cols-[1.3fr_1fr]">
        <ul className="space-y-5">
          {findings.map((finding) => (
            <li key={finding} className="flex gap-4">
              <span className="mt-0.5 inline-flex size-7 items-center justify-center rounded-full bg-spark-500/15 text-spark-300">
                <Icon name="check" className="size-4" />
              </span>
              <p className="leading-relaxed text-slate-200">{finding}</p>
            </li>
          ))}
        </ul>
        <figure className="rounded-2xl bg-white/5 p-6 ring-1 ring-white/10 sm:p-8">
          <blockquote className="font-display text-xl leading-relaxed text-white">
            “Lasting change rarely comes from one big decision. It comes from many small, noticed moments, inside a structure that makes the next one easy.”
          </blockquote>
          <figcaption className="mt-6 text-sm text-slate-400">
            From the founder’s dissertation research.{' '}
            <Link to="/me" className="font-semibold text-spark-300 underline-offset-4 hover:underline">
              Meet the founder
            </Link>
          </figcaption>
        </figure>
      </div>
    </Section>
  );
}
