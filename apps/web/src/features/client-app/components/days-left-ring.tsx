interface DaysLeftRingProps {
  daysLeft: number;
  percentComplete: number;
}

const RADIUS = 52;
const CIRCUMFERENCE = 2 * Math.PI * RADIUS;

/** The evolution's remaining days, with the ring filled as far as the cycle has come. */
export function DaysLeftRing({ daysLeft, percentComplete }: DaysLeftRingProps) {
  return (
    <div className="relative size-36 shrink-0" role="img" aria-label={`${daysLeft} days left, ${percentComplete}% complete`}>
      <svg viewBox="0 0 120 120" className="size-full -rotate-90">
        <circle cx="60" cy="60" r={RADIUS} fill="none" stroke="currentColor" strokeWidth="10" className="text-white/15" />
        <circle
          cx="60"
          cy="60"
          r={RADIUS}
          fill="none"
          stroke="currentColor"
          strokeWidth="10"
          strokeLinecap="round"
          strokeDasharray={CIRCUMFERENCE}
          strokeDashoffset={CIRCUMFERENCE * (1 - percentComplete / 100)}
          className="text-spark-400 transition-[stroke-dashoffset] duration-700"
        />
      </svg>
      <div className="absolute inset-0 flex flex-col items-center justify-center text-white">
        <span className="text-4xl font-bold" data-testid="days-left">
          {daysLeft}
        </span>
        <span className="text-xs tracking-wide text-white/70 uppercase">days left</span>
      </div>
    </div>
  );
}
