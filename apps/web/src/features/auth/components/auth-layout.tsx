import type { ReactNode } from 'react';
import { Logo } from '../../../ui/layout/logo';

/** The quiet frame of the sign-in screens: logo, one centred column, copyright. */
export function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col bg-linear-to-b from-ink-50 via-white to-spark-50">
      <header className="mx-auto w-full max-w-5xl px-4 py-5 sm:px-6">
        <Logo />
      </header>
      <main id="main" className="flex flex-1 items-start justify-center px-4 pt-4 pb-12 sm:items-center sm:px-6">
        <div className="w-full max-w-lg">{children}</div>
      </main>
      <footer className="px-4 py-6 text-center text-xs text-slate-500">© {new Date().getFullYear()} Spark Evolution Labs, Inc. All rights reserved.</footer>
    </div>
  );
}
