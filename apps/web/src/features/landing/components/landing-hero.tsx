import { Link } from 'react-router-dom';
import { Badge } from '../../../ui/badge';
import { buttonClasses, ButtonLink } from '../../../ui/button';

export function LandingHero() {
  return (
    <section className="relative overflow-hidden bg-ink-950 text-white">
      <div
        aria-hidden="true"
        className="absolute inset-0 bg-[radial-gradient(ellipse_at_top_right,rgb(249_127_7/0.35),transparent_55%),radial-gradient(ellipse_at_bottom_left,rgb(102_96_240/0.35),transparent_55%)]"
      />
      <div className="relative mx-auto max-w-6xl px-4 py-24 sm:px-6 sm:py-32">
        <Badge tone="onDark">Research-based habit coaching</Badge>
        <h1 className="mt-6 max-w-3xl text-4xl font-bold tracking-tight text-balance sm:text-6xl">
          Small sparks. <span className="text-spark-400">Lasting evolution.</span>
        </h1>
        <p className="mt-6 max-w-2xl text-lg leading-relaxed text-slate-300 sm:text-xl">
          Spark is a closed-loop coaching system built on doctoral research. Capture the moments that matter, follow 21- and 90-day evolution cycles, and work
          with a coach who sees your real progress, not just your good intentions.
        </p>
        <div className="mt-10 flex flex-col gap-3 sm:flex-row">
          <ButtonLink to="/interest" size="lg">
            Start Your Evolution
          </ButtonLink>
          <Link to={{ hash: '#method' }} className={buttonClasses('inverse', 'lg')}>
            Learn More
          </Link>
        </div>
        <dl className="mt-16 grid max-w-2xl grid-cols-3 gap-6 border-t border-white/10 pt-8">
          {[
            ['21 / 90', 'day evolution cycles'],
            ['4', 'tools, one loop'],
            ['24-48h', 'personal coach review'],
          ].map(([value, label]) => (
            <div key={label}>
              <dt className="sr-only">{label}</dt>
              <dd className="text-2xl font-bold text-white sm:text-3xl">{value}</dd>
              <dd className="mt-1 text-sm text-slate-400">{label}</dd>
            </div>
          ))}
        </dl>
      </div>
    </section>
  );
}
