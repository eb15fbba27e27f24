import type { ButtonHTMLAttributes } from 'react';
import { Link, type LinkProps } from 'react-router-dom';
import { classNames } from './class-names';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'inverse' | 'dark' | 'danger';
export type ButtonSize = 'md' | 'lg';

const variants: Record<ButtonVariant, string> = {
  primary: 'bg-spark-500 text-ink-950 hover:bg-spark-400 shadow-lg shadow-spark-500/25',
  secondary: 'bg-white text-ink-900 ring-1 ring-inset ring-slate-300 hover:bg-slate-50',
  ghost: 'text-ink-800 hover:bg-ink-50',
  inverse: 'bg-white/10 text-white ring-1 ring-inset ring-white/30 hover:bg-white/20',
  // On a spark-orange surface, where the primary button would vanish.
  dark: 'bg-ink-950 text-white hover:bg-ink-900',
  // What cannot be undone (deleting an account).
  danger: 'bg-red-700 text-white hover:bg-red-800',
};

const sizes: Record<ButtonSize, string> = {
  md: 'px-4 py-2.5 text-sm',
  lg: 'px-6 py-3.5 text-base',
};

/** The shared look of every button and button-styled link. */
export function buttonClasses(variant: ButtonVariant = 'primary', size: ButtonSize = 'md', extra?: string): string {
  return classNames(
    'inline-flex items-center justify-center gap-2 rounded-xl font-semibold transition-colors',
    'focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-spark-500',
    'disabled:cursor-not-allowed disabled:opacity-60',
    variants[variant],
    sizes[size],
    extra,
  );
}

interface StyleProps {
  variant?: ButtonVariant;
  size?: ButtonSize;
}

export function Button({ variant, size, className, type = 'button', ...props }: ButtonHTMLAttributes<HTMLButtonElement> & StyleProps) {
  return <button type={type} className={buttonClasses(variant, size, className)} {...props} />;
}

export function ButtonLink({ variant, size, className, ...props }: LinkProps & StyleProps) {
  return <Link className={buttonClasses(variant, size, className)} {...props} />;
}
