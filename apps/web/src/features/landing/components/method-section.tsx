import { Card } from '../../../ui/card';
import { IconTile } from '../../../ui/icon';
import { Section } from '../../../ui/layout/section';
import { methodLoop } from '../../evolutions/method-loop';

const rhythm = [
  { day: 'Sunday', name: 'Alignment session', text: 'Plan the week’s tasks against your goal.' },
  { day: 'Daily', name: 'Sparks', text: 'Capture the small moments as they happen.' },
  { day: 'Friday', name: 'Check-in', text: 'Reflect on the week with your coach.' },
  { day: 'Scheduled', name: 'Rest and recovery', text: 'Built into the plan, never an afterthought.' },
];

export function MethodSection() {
  return (
    <Section
      id="method"
      eyebrow="The Method"
      title="Pivot. Align. Interrogate. Transform."
      intro="Willpower fades; structure stays. The Spark method runs in fixed evolution cycles of 21 or 90 days, and every cycle passes through the same four-part loop. Each pass makes the next one easier."
    >
      <ol className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
        {methodLoop.map((step, index) => (
          <li key={step.name}>
            <Card className="h-full">
              <div className="flex items-center justify-between">
                <IconTile name={step.icon} />
                <span className="text-sm font-semibold text-slate-500">0{index + 1}</span>
              </div>
              <h3 className="mt-5 text-lg font-semibold text-ink-950">{step.name}</h3>
              <p className="mt-2 text-sm leading-relaxed text-slate-600">{step.summary}</p>
            </Card>
          </li>
        ))}
      </ol>
      <div className="mt-10 rounded-2xl bg-ink-50 p-6 sm:p-8">
        <h3 className="text-lg font-semibold text-ink-950">A weekly rhythm you can keep</h3>
        <ul className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {rhythm.map((item) => (
            <li key={item.name}>
              <p className="text-xs font-semibold tracking-widest text-ink-700 uppercase">{item.day}</p>
              <p className="mt-1 font-semibold text-ink-950">{item.name}</p>
              <p className="mt-1 text-sm text-slate-600">{item.text}</p>
            </li>
          ))}
        </ul>
      </div>
    </Section>
  );
}
