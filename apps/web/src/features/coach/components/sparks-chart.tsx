import type { ClientTrends } from '@spark/contracts';

/** Sparks per day over the cycle as bars; a small SVG that scales to its box. */
export function SparksChart({ days }: { days: ClientTrends['sparksPerDay'] }) {
  const max = Math.max(1, ...days.map((day) => day.count));
  const width = Math.max(days.length * 6, 60);
  return (
    <svg viewBox={`0 0 ${width} 60`} preserveAspectRatio="none" className="h-24 w-full" role="img" aria-label="Sparks per day over this evolution">
      {days.map((day, index) => {
        const height = (day.count / max) * 56;
        return (
          <rect key={day.date} x={index * 6 + 1} y={60 - height} width={4} height={height} rx={1} className="fill-spark-500">
            <title>{`${day.date}: ${day.count}`}</title>
          </rect>
        );
      })}
      <line x1={0} x2={width} y1={59.5} y2={59.5} className="stroke-slate-200" />
    </svg>
  );
}
