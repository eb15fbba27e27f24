import { Section } from '../../../ui/layout/section';

const loop = [
  { name: 'Capture', text: 'Clients record sparks in the app, in seconds.' },
  { name: 'Understand', text: 'The pattern engine finds what drives each behaviour.' },
  { name: 'Plan', text: 'The planner turns patterns into the next cycle’s daily habits.' },
  { name: 'Guide', text: 'Coaches see trends and step in at the right moment.' },
];

export function EcosystemSection() {
  return (
    <Section
      id="ecosystem"
      tone="muted"
      eyebrow="The Ecosystem"
      title="One closed loop, from a single moment to lasting change"
      intro="Most habit apps stop at a checkbox. Spark connects the client, the coach and the data in one loop, so every captured moment makes the next plan and the next conversation better."
    >
      <ol className="grid gap-4 md:grid-cols-4">
        {loop.map((stage, index) => (
          <li key={stage.name} className="relative rounded-2xl bg-white p-6 shadow-soft ring-1 ring-slate-200/70">
            <span className="inline-flex size-9 items-center justify-center rounded-full bg-ink-950 text-sm font-bold text-spark-300">{index + 1}</span>
            <h3 className="mt-4 font-semibold text-ink-950">{stage.name}</h3>
            <p className="mt-1 text-sm leading-relaxed text-slate-600">{stage.text}</p>
          </li>
        ))}
      </ol>
    </Section>
  );
}
