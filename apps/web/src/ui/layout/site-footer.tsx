import { Link, type To } from 'react-router-dom';
import { useAfterHydration } from '../../lib/hydration';
import { Logo } from './logo';

// The year the pages were prerendered in (vite.config.ts): a page built in December still hydrates in January.
const buildYear = Number(import.meta.env.VITE_BUILD_YEAR);

interface FooterColumn {
  heading: string;
  links: ReadonlyArray<{ label: string; to: To }>;
}

const columns: readonly FooterColumn[] = [
  {
    heading: 'Product',
    links: [
      { label: 'The Spark app', to: { pathname: '/', hash: '#products' } },
      { label: 'Coach Dashboard', to: { pathname: '/', hash: '#products' } },
      { label: 'The Ecosystem', to: { pathname: '/', hash: '#ecosystem' } },
      { label: 'All products', to: '/products' },
    ],
  },
  {
    heading: 'Company',
    links: [
      { label: 'The Method', to: { pathname: '/', hash: '#method' } },
      { label: 'The Research', to: { pathname: '/', hash: '#research' } },
      { label: 'Evolution cycles', to: '/evolutions' },
      { label: 'About the Founder', to: '/me' },
    ],
  },
];

const linkClasses = 'rounded text-slate-300 hover:text-white focus-visible:outline-3 focus-visible:outline-spark-500';

export function SiteFooter() {
  const year = useAfterHydration(buildYear, () => new Date().getFullYear());
  return (
    <footer className="bg-ink-950 text-slate-300">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-14 sm:px-6 md:grid-cols-[1.5fr_1fr_1fr]">
        <div className="space-y-4">
          <Logo inverse />
          <p className="max-w-sm text-sm leading-relaxed">
            A closed-loop coaching system built on doctoral research: small daily sparks, fixed evolution cycles and a coach who sees the whole picture.
          </p>
          <Link to="/signin" className={`${linkClasses} inline-block text-sm font-semibold text-spark-300`}>
            Returning user? Sign in here
          </Link>
        </div>
        {columns.map((column) => (
          <div key={column.heading}>
            <h2 className="text-sm font-semibold tracking-wide text-white uppercase">{column.heading}</h2>
            <ul className="mt-4 space-y-3 text-sm">
              {column.links.map((link) => (
                <li key={link.label}>
                  <Link to={link.to} className={linkClasses}>
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </div>
      <div className="border-t border-white/10">
        <p className="mx-auto max-w-6xl px-4 py-6 text-xs text-slate-400 sm:px-6">© {year} Spark Evolution Labs, Inc. All rights reserved.</p>
      </div>
    </footer>
  );
}
