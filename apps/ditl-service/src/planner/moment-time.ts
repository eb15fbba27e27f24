import type { DaySchedule } from '@spark/contracts';
import { onClock } from '../schedule/clock';
import { findTimeMentions } from '../schedule/time-mentions';

/**
 * Slide times that name a moment of the client's day instead of a clock time: used when the
 * answers do not say the hour, so the plan never pretends to know it.
 */
export const relativeTimes = {
  wake: 'When you wake',
  sleep: 'Before you sleep',
  challenge: 'When it shows up',
  firstBreak: 'Your first break',
  mainMeal: 'Your main meal',
  afterWork: 'After work',
  daysOff: 'On your days off',
} as const;

/** Minutes before bedtime a "Before you sleep" moment stands for. */
export const WIND_DOWN_LEAD = 45;

export type MomentTime = { type: 'clock'; minute: number } | { type: 'relative'; minute: number | null; dayOff: boolean } | { type: 'unreadable' };

const shifts: Record<string, number> = { before: -30, after: 30, around: 0, by: 0, at: 0 };

/** What a slide's time label means in the client's day (a clock minute when there is one). */
export function readMomentTime(label: string, schedule: DaySchedule): MomentTime {
  const text = label.trim();
  const relative = (Object.keys(relativeTimes) as (keyof typeof relativeTimes)[]).find((key) => relativeTimes[key].toLowerCase() === text.toLowerCase());
  switch (relative) {
    case undefined:
      break;
    case 'wake':
      return { type: 'relative', minute: schedule.wake.minute, dayOff: false };
    case 'sleep':
      return { type: 'relative', minute: onClock(schedule.sleep.minute - WIND_DOWN_LEAD), dayOff: false };
    case 'afterWork':
      return { type: 'relative', minute: schedule.work ? onClock(schedule.work.end + 30) : null, dayOff: false };
    case 'daysOff':
      return { type: 'relative', minute: null, dayOff: true };
    case 'challenge':
    case 'firstBreak':
    case 'mainMeal':
      return { type: 'relative', minute: null, dayOff: false };
  }
  const clock = findTimeMentions(text, 'en').find((mention) => mention.type === 'clock');
  if (!clock || clock.type !== 'clock') return { type: 'unreadable' };
  const { hour, minute, meridiem } = clock.start;
  const base = (hour % 12) * 60 + minute + (meridiem === 'pm' ? 720 : 0);
  const shift = shifts[/^(before|after|around|by|at)\b/i.exec(text)?.[1]?.toLowerCase() ?? 'at'] ?? 0;
  // Without AM or PM ("9:30") the hour is read as written, as a 24-hour clock reads it.
  return { type: 'clock', minute: onClock((meridiem ? base : hour * 60 + minute) + shift) };
}
