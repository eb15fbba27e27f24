import type { HTMLAttributes } from 'react';
import { classNames } from './class-names';

export function Card({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div className={classNames('rounded-2xl bg-white p-6 shadow-soft ring-1 ring-slate-200/70', className)} {...props} />;
}
