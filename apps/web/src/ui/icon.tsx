import { classNames } from './class-names';

// Stroke icons drawn on a 24-unit grid; inline so public pages need no icon font or library.
const paths = {
  spark: 'M13 2 4 14h7l-1 8 9-12h-7l1-8Z',
  chart: 'M4 20V10m6 10V4m6 16v-7m4 7H2',
  target: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18Zm0-4a5 5 0 1 0 0-10 5 5 0 0 0 0 10Zm0-4a1 1 0 1 0 0-2 1 1 0 0 0 0 2Z',
  compass: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18Zm3.5-12.5-2 5-5 2 2-5 5-2Z',
  users: 'M16 20v-1a4 4 0 0 0-4-4H6a4 4 0 0 0-4 4v1m7-9a4 4 0 1 0 0-8 4 4 0 0 0 0 8Zm13 9v-1a4 4 0 0 0-3-3.9M16 3.1a4 4 0 0 1 0 7.8',
  wand: 'M15 4V2m0 12v-2m-7-3H6m12 0h-2m-1.2-4.8L16 4m-9.2.2L8 5.4M3 21l9-9m1.8-4.8L12.6 6',
  cpu: 'M9 3v2m6-2v2M9 19v2m6-2v2M3 9h2m-2 6h2m14-6h2m-2 6h2M7 5h10a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2V7a2 2 0 0 1 2-2Zm3 5h4v4h-4v-4Z',
  book: 'M4 19.5A2.5 2.5 0 0 1 6.5 17H20V3H6.5A2.5 2.5 0 0 0 4 5.5v14Zm0 0A2.5 2.5 0 0 0 6.5 22H20v-5',
  calendar: 'M8 2v4m8-4v4M3 10h18M5 4h14a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2Z',
  search: 'm21 21-4.3-4.3M11 19a8 8 0 1 0 0-16 8 8 0 0 0 0 16Z',
  refresh: 'M21 12a9 9 0 0 1-15.5 6.2L3 16m0-4a9 9 0 0 1 15.5-6.2L21 8m0-5v5h-5M3 21v-5h5',
  moon: 'M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8Z',
  check: 'M20 6 9 17l-5-5',
  mail: 'M4 4h16a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2Zm18 2-10 7L2 6',
  award: 'M12 15a7 7 0 1 0 0-14 7 7 0 0 0 0 14Zm-3.5-1L7 23l5-3 5 3-1.5-9',
  mic: 'M12 2a3 3 0 0 0-3 3v7a3 3 0 0 0 6 0V5a3 3 0 0 0-3-3Zm7 10a7 7 0 0 1-14 0m7 7v3',
  arrow: 'M5 12h14m-6-6 6 6-6 6',
  lock: 'M7 11V7a5 5 0 0 1 10 0v4M5 11h14a2 2 0 0 1 2 2v7a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2v-7a2 2 0 0 1 2-2Z',
} as const;

export type IconName = keyof typeof paths;

export function Icon({ name, className }: { name: IconName; className?: string }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      className={classNames('size-6 shrink-0', className)}
    >
      <path d={paths[name]} />
    </svg>
  );
}

/** An icon on a soft tinted tile, used by feature and product cards. */
export function IconTile({ name, tone = 'spark' }: { name: IconName; tone?: 'spark' | 'ink' }) {
  return (
    <span
      className={classNames(
        'inline-flex size-12 items-center justify-center rounded-xl',
        tone === 'spark' ? 'bg-spark-100 text-spark-700' : 'bg-ink-100 text-ink-700',
      )}
    >
      <Icon name={name} />
    </span>
  );
}
