import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router-dom';
import { ButtonLink } from '../button';
import { Logo } from './logo';
import { primaryNavLinks } from './nav-links';

// The menu (and Radix behind it) loads only when a phone user opens it.
const MobileMenu = lazy(() => import('./mobile-menu'));

export function SiteHeader() {
  const [menuOpen, setMenuOpen] = useState(false);
  const [menuRequested, setMenuRequested] = useState(false);

  const openMenu = () => {
    setMenuRequested(true);
    setMenuOpen(true);
  };

  return (
    <header className="sticky top-0 z-30 border-b border-slate-200/70 bg-white/85 backdrop-blur-md">
      <nav aria-label="Main" className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
        <Logo />
        <ul className="hidden items-center gap-1 lg:flex">
          {primaryNavLinks.map((link) => (
            <li key={link.label}>
              <Link
                to={link.to}
                className="rounded-lg px-3 py-2 text-sm font-medium text-slate-700 hover:bg-ink-50 hover:text-ink-900 focus-visible:outline-3 focus-visible:outline-spark-500"
              >
                {link.label}
              </Link>
            </li>
          ))}
        </ul>
        <div className="flex items-center gap-2">
          <ButtonLink to="/interest" size="md" className="hidden sm:inline-flex">
            Get Started
          </ButtonLink>
          <button
            type="button"
            onClick={openMenu}
            aria-label="Open menu"
            aria-expanded={menuOpen}
            className="rounded-lg p-2 text-ink-900 hover:bg-ink-50 focus-visible:outline-3 focus-visible:outline-spark-500 lg:hidden"
          >
            <svg aria-hidden="true" viewBox="0 0 24 24" className="size-6">
              <path fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" d="M4 7h16M4 12h16M4 17h16" />
            </svg>
          </button>
        </div>
      </nav>
      {menuRequested && (
        <Suspense fallback={null}>
          <MobileMenu open={menuOpen} onOpenChange={setMenuOpen} />
        </Suspense>
      )}
    </header>
  );
}
