import type { HTMLAttributes } from 'react';
import { classNames } from './class-names';

export type BadgeTone = 'spark' | 'ink' | 'success' | 'onDark';

const tones: Record<BadgeTone, string> = {
  spark: 'bg-spark-100 text-spark-800',
  ink: 'bg-ink-100 text-ink-800',
  success: 'bg-emerald-100 text-emerald-800',
  onDark: 'bg-white/10 text-spark-200 ring-1 ring-inset ring-white/15',
};

export function Badge({ tone = 'spark', className, ...props }: HTMLAttributes<HTMLSpanElement> & { tone?: BadgeTone }) {
  return (
    <span
      className={classNames('inline-flex items-center rounded-full px-3 py-1 text-xs font-semibold tracking-wide uppercase', tones[tone], className)}
      {...props}
    />
  );
}
