import type { ComponentProps } from 'react';
import { classNames } from './class-names';
import { fieldClasses } from './input';

// A styled native select: the platform's own picker is the most accessible one on phones.
export function Select({ className, children, ...props }: ComponentProps<'select'>) {
  return (
    <div className="relative">
      <select className={classNames(fieldClasses, 'appearance-none pr-10', className)} {...props}>
        {children}
      </select>
      <svg aria-hidden="true" viewBox="0 0 20 20" className="pointer-events-none absolute top-1/2 right-3 size-5 -translate-y-1/2 text-slate-500">
        <path fill="currentColor" d="M5.3 7.3a1 1 0 0 1 1.4 0L10 10.6l3.3-3.3a1 1 0 1 1 1.4 1.4l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 0 1 0-1.4Z" />
      </svg>
    </div>
  );
}
