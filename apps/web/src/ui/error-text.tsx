import type { HTMLAttributes } from 'react';
import { classNames } from './class-names';

/** A failure said under what failed, in one look everywhere, and read out by screen readers as it appears. */
export function ErrorText({ className, ...props }: HTMLAttributes<HTMLParagraphElement>) {
  return <p role="alert" className={classNames('text-sm text-red-700', className)} {...props} />;
}
