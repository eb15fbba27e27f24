import type { ReactNode } from 'react';
import { classNames } from '../../../ui/class-names';
import { fieldClasses } from '../../../ui/input';
import { ErrorText } from '../../../ui/error-text';

export const textareaClasses = classNames(fieldClasses, 'min-h-28 resize-y');

interface FormFieldProps {
  id: string;
  label: string;
  optional?: boolean;
  hint?: string;
  error?: string;
  children: ReactNode;
}

/** A labelled field with its hint and its error, wired for screen readers by id. */
export function FormField({ id, label, optional, hint, error, children }: FormFieldProps) {
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="flex items-baseline justify-between text-sm font-semibold text-ink-950">
        {label}
        {optional && <span className="text-xs font-normal text-slate-500">Optional</span>}
      </label>
      {hint && <p className="text-sm text-slate-600">{hint}</p>}
      {children}
      {error && (
        <ErrorText id={`${id}-error`} className="font-medium">
          {error}
        </ErrorText>
      )}
    </div>
  );
}
