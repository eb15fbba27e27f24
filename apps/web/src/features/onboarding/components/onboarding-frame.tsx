import type { ReactNode } from 'react';
import { Logo } from '../../../ui/layout/logo';

/** The calm frame of the onboarding screens: logo, one centred column, nothing to wander off to. */
export function OnboardingFrame({ children, wide = false }: { children: ReactNode; wide?: boolean }) {
  return (
    <div className="flex min-h-screen flex-col bg-linear-to-b from-ink-50 via-white to-spark-50">
      <header className="mx-auto w-full max-w-5xl px-4 py-5 sm:px-6">
        <Logo />
      </header>
      <main id="main" className="flex flex-1 justify-center px-4 pt-2 pb-12 sm:px-6 sm:pt-6">
        <div className={wide ? 'w-full max-w-4xl' : 'w-full max-w-xl'}>{children}</div>
      </main>
    </div>
  );
}
