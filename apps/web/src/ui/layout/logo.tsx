import { Link } from 'react-router-dom';
import { classNames } from '../class-names';

export function SparkMark({ className }: { className?: string }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 32 32" className={className}>
      <defs>
        <linearGradient id="spark-mark" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#ffbb4a" />
          <stop offset="1" stopColor="#dd5a02" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="9" fill="#17143d" />
      <path fill="url(#spark-mark)" d="M17.8 4 9 18h6l-1.8 10L23 13.5h-6.2L17.8 4Z" />
    </svg>
  );
}

export function Logo({ inverse = false }: { inverse?: boolean }) {
  return (
    <Link to="/" className="inline-flex items-center gap-2 rounded-lg focus-visible:outline-3 focus-visible:outline-offset-4 focus-visible:outline-spark-500">
      <SparkMark className="size-8" />
      <span className={classNames('text-xl font-bold tracking-tight', inverse ? 'text-white' : 'text-ink-950')}>Spark</span>
    </Link>
  );
}
