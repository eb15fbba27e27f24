import { usePageMeta } from '../../../lib/use-page-meta';
import { ButtonLink } from '../../../ui/button';
import { Card } from '../../../ui/card';
import { IconTile, type IconName } from '../../../ui/icon';
import { PublicLayout } from '../../../ui/layout/public-layout';
import { Section } from '../../../ui/layout/section';
import { methodLoop } from '../method-loop';

const cycles = [
  { length: '21 days', name: 'Spark cycle', text: 'A focused sprint to install one small habit and prove to yourself that change is possible.' },
  {
    length: '90 days',
    name: 'Evolution cycle',
    text: 'The full evolution: long enough for a habit to become part of who you are. The default for every client.',
  },
];

const week: ReadonlyArray<{ icon: IconName; name: string; text: string }> = [
  { icon: 'calendar', name: 'Sunday alignment', text: 'Line up the week’s tasks with your goal. Decide the one thing that matters each day.' },
  { icon: 'spark', name: 'Daily sparks', text: 'Capture the small wins and honest misses as they happen. Both are data.' },
  { icon: 'check', name: 'Friday check-in', text: 'Reflect on the week with your coach: what worked, what did not, what to try next.' },
  { icon: 'moon', name: 'Rest and recovery', text: 'Scheduled, not earned. Recovery days keep the cycle sustainable.' },
];

export default function EvolutionsPage() {
  usePageMeta({
    title: 'Evolution cycles',
    description: 'How a Spark evolution works: pivot, alignment, interrogation and transformation over 21- or 90-day cycles.',
    path: '/evolutions',
  });
  return (
    <PublicLayout>
      <section className="bg-ink-950 px-4 py-20 text-white sm:px-6 sm:py-24">
        <div className="mx-auto max-w-6xl">
          <p className="text-sm font-semibold tracking-widest text-spark-300 uppercase">Evolutions</p>
          <h1 className="mt-3 max-w-3xl text-4xl font-bold tracking-tight text-balance sm:text-5xl">Change happens in cycles, not in one leap</h1>
          <p className="mt-5 max-w-2xl text-lg text-slate-300">
            An evolution is a fixed stretch of time with a clear goal, a weekly rhythm and a reflection at the end. When it ends, the next one begins, stronger.
          </p>
        </div>
      </section>
      <Section eyebrow="Cycle length" title="21 or 90 days">
        <ul className="grid gap-6 md:grid-cols-2">
          {cycles.map((cycle) => (
            <li key={cycle.name}>
              <Card className="h-full p-8">
                <p className="text-4xl font-bold text-spark-600">{cycle.length}</p>
                <h3 className="mt-2 text-xl font-semibold text-ink-950">{cycle.name}</h3>
                <p className="mt-2 text-slate-600">{cycle.text}</p>
              </Card>
            </li>
          ))}
        </ul>
      </Section>
      <Section tone="muted" eyebrow="The loop" title="Pivot, alignment, interrogation, transformation">
        <ol className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {methodLoop.map((step) => (
            <li key={step.name}>
              <Card className="h-full">
                <IconTile name={step.icon} />
                <h3 className="mt-4 text-lg font-semibold text-ink-950">{step.name}</h3>
                <p className="mt-2 text-sm leading-relaxed text-slate-600">{step.summary}</p>
              </Card>
            </li>
          ))}
        </ol>
      </Section>
      <Section eyebrow="Every week" title="A rhythm that carries you">
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {week.map((item) => (
            <li key={item.name}>
              <IconTile name={item.icon} tone="ink" />
              <h3 className="mt-4 font-semibold text-ink-950">{item.name}</h3>
              <p className="mt-1 text-sm text-slate-600">{item.text}</p>
            </li>
          ))}
        </ul>
        <div className="mt-14">
          <ButtonLink to="/interest" size="lg">
            Start Your Evolution
          </ButtonLink>
        </div>
      </Section>
    </PublicLayout>
  );
}
