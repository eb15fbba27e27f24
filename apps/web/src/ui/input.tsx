import type { ComponentProps } from 'react';
import { classNames } from './class-names';

export const fieldClasses =
  'block w-full rounded-xl border border-slate-300 bg-white px-4 py-3 text-base text-ink-950 placeholder:text-slate-500 ' +
  'focus:border-spark-500 focus:outline-none focus:ring-3 focus:ring-spark-500/30 disabled:opacity-60';

export function Input({ className, ...props }: ComponentProps<'input'>) {
  return <input className={classNames(fieldClasses, className)} {...props} />;
}
