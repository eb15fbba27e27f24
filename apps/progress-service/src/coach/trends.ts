import { addDays, daysBetween, type ClientTrends } from '@spark/contracts';

export interface CaptureBucket {
  /** Local calendar date of the captures. */
  day: string;
  /** Local hour, 0-23. */
  hour: number;
  count: number;
}

const partOfDay = (hour: number): keyof ClientTrends['timeOfDay'] => {
  if (hour >= 5 && hour < 12) return 'morning';
  if (hour >= 12 && hour < 17) return 'afternoon';
  if (hour >= 17 && hour < 22) return 'evening';
  return 'night';
};

/** Folds the cycle's captures (per local day and hour) into the Overview's chart and patterns. */
export function foldCaptures(buckets: readonly CaptureBucket[], cycleStart: string, lastDay: string): Omit<ClientTrends, 'daysSinceLastSpark' | 'attention'> {
  const perDay = new Map<string, number>();
  const timeOfDay = { morning: 0, afternoon: 0, evening: 0, night: 0 };
  const weekdays = [0, 0, 0, 0, 0, 0, 0];
  for (const bucket of buckets) {
    perDay.set(bucket.day, (perDay.get(bucket.day) ?? 0) + bucket.count);
    timeOfDay[partOfDay(bucket.hour)] += bucket.count;
    weekdays[new Date(`${bucket.day}T00:00:00Z`).getUTCDay()] += bucket.count;
  }
  const days = Math.max(0, daysBetween(cycleStart, lastDay)) + 1;
  const sparksPerDay = Array.from({ length: days }, (_, index) => {
    const date = addDays(cycleStart, index);
    return { date, count: perDay.get(date) ?? 0 };
  });
  return { sparksPerDay, timeOfDay, weekdays };
}
