import type { DaySchedule } from '@spark/contracts';

export const MINUTES_PER_DAY = 24 * 60;

/** Wraps any minute count onto the clock: -30 is 11:30 PM, 1470 is 12:30 AM. */
export const onClock = (minute: number) => ((Math.round(minute) % MINUTES_PER_DAY) + MINUTES_PER_DAY) % MINUTES_PER_DAY;

/** Minutes from `from` forward to `to`, going past midnight when needed (0 to 1439). */
export const minutesAfter = (from: number, to: number) => onClock(to - from);

/** The shorter way round the clock between two times: 11 PM and 1 AM are 120 minutes apart. */
export const clockDistance = (a: number, b: number) => Math.min(minutesAfter(a, b), minutesAfter(b, a));

export function formatClock(minute: number, style: DaySchedule['clock']): string {
  const hour = Math.floor(onClock(minute) / 60);
  const mins = String(onClock(minute) % 60).padStart(2, '0');
  if (style === '24h') return `${String(hour).padStart(2, '0')}:${mins}`;
  return `${hour % 12 === 0 ? 12 : hour % 12}:${mins} ${hour < 12 ? 'AM' : 'PM'}`;
}

/** Minutes awake: from waking to bedtime, across midnight when the day wraps. */
export const wakingSpan = (schedule: Pick<DaySchedule, 'wake' | 'sleep'>) => minutesAfter(schedule.wake.minute, schedule.sleep.minute) || MINUTES_PER_DAY;

/** True when the client is asleep at that minute: at or after bedtime and before waking. */
export const isAsleep = (schedule: Pick<DaySchedule, 'wake' | 'sleep'>, minute: number) => minutesAfter(schedule.wake.minute, minute) >= wakingSpan(schedule);

/** Where a time falls in the client's own day: 0 at waking, growing until bedtime. */
export const sinceWaking = (schedule: Pick<DaySchedule, 'wake'>, minute: number) => minutesAfter(schedule.wake.minute, minute);
