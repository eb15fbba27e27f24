import { Link } from 'react-router-dom';
import { classNames } from '../../../ui/class-names';
import { IconTile } from '../../../ui/icon';
import type { SignInProduct } from './sign-in-copy';

const choices: ReadonlyArray<{ product: SignInProduct; name: string; audience: string; icon: 'spark' | 'users' }> = [
  { product: 'spark', name: 'The Spark', audience: 'For clients', icon: 'spark' },
  { product: 'coach', name: 'Coach Dashboard', audience: 'For coaches', icon: 'users' },
];

/** The two product cards; choosing one sets ?product= and so the heading, blurb and logo. */
export function ProductChoice({ selected }: { selected: SignInProduct | null }) {
  return (
    <nav aria-label="Choose a product" className="grid grid-cols-2 gap-3">
      {choices.map((choice) => {
        const active = choice.product === selected;
        return (
          <Link
            key={choice.product}
            to={{ search: `?product=${choice.product}` }}
            replace
            aria-current={active ? 'page' : undefined}
            className={classNames(
              'flex flex-col items-start gap-3 rounded-xl p-4 ring-1 transition-colors focus-visible:outline-3 focus-visible:outline-spark-500',
              active ? 'bg-spark-50 ring-2 ring-spark-500' : 'bg-white ring-slate-200 hover:bg-slate-50',
            )}
          >
            <IconTile name={choice.icon} tone={choice.product === 'spark' ? 'spark' : 'ink'} />
            <span>
              <span className="block font-semibold text-ink-950">{choice.name}</span>
              <span className="block text-sm text-slate-600">{choice.audience}</span>
            </span>
          </Link>
        );
      })}
    </nav>
  );
}
