import { appendFileSync } from 'node:fs';

/** One headline figure of a benchmark, as `npm run bench` (bench/run-all.ts) prints it in its table. */
export interface Figure {
  measure: string;
  figure: string;
  target?: string;
  met?: boolean;
}

/** Hands a figure to the run-all table when a benchmark runs under it (BENCH_SUMMARY_FILE); a no-op otherwise. */
export function recordFigure(figure: Figure): void {
  const file = process.env.BENCH_SUMMARY_FILE;
  if (file) appendFileSync(file, `${JSON.stringify(figure)}\n`);
}
