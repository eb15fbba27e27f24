import type { ReactNode } from 'react';
import { classNames } from '../class-names';

interface SectionProps {
  id?: string;
  eyebrow?: string;
  title: string;
  intro?: ReactNode;
  children?: ReactNode;
  className?: string;
  tone?: 'light' | 'muted' | 'dark';
}

const tones = {
  light: 'bg-white',
  muted: 'bg-slate-50',
  dark: 'bg-ink-950 text-slate-200',
} as const;

/** A page section with an eyebrow, a heading and an intro paragraph. */
export function Section({ id, eyebrow, title, intro, children, className, tone = 'light' }: SectionProps) {
  const dark = tone === 'dark';
  return (
    <section id={id} aria-labelledby={id ? `${id}-title` : undefined} className={classNames('render-when-visible py-20 sm:py-24', tones[tone], className)}>
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="max-w-3xl">
          {eyebrow && <p className={classNames('text-sm font-semibold tracking-widest uppercase', dark ? 'text-spark-300' : 'text-spark-700')}>{eyebrow}</p>}
          <h2
            id={id ? `${id}-title` : undefined}
            className={classNames('mt-3 text-3xl font-bold tracking-tight sm:text-4xl', dark ? 'text-white' : 'text-ink-950')}
          >
            {title}
          </h2>
          {intro && <div className={classNames('mt-5 text-lg leading-relaxed', dark ? 'text-slate-300' : 'text-slate-600')}>{intro}</div>}
        </div>
        {children && <div className="mt-12">{children}</div>}
      </div>
    </section>
  );
}
