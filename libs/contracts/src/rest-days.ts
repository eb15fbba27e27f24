import { z } from 'zod';
import { isoDateSchema, uuidSchema } from './common';
import { addDays, daysBetween, type SkippedDay } from './evolution';

/**
 * Rest days and pause days: the days a client planned not to spark. The streak skips them (they
 * neither break nor extend it) and the coach's attention ordering does not count them as idle.
 * Pure calendar arithmetic on `YYYY-MM-DD` dates in the client's own time zone (docs/streaks.md).
 */

/** The coach's default: 2 pause days in every 14-day window of an evolution. */
export const DEFAULT_PAUSE_DAYS_ALLOWANCE = 2;
export const PAUSE_WINDOW_DAYS = 14;
export const MAX_PAUSE_DAYS_ALLOWANCE = PAUSE_WINDOW_DAYS;

export const weekdayNames = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/** 0 = Sunday … 6 = Saturday, as JavaScript and PostgreSQL's `extract(dow …)` count. */
export const weekdaySchema = z
  .number({ error: 'Choose a day of the week' })
  .int('Choose a day of the week')
  .min(0, 'Choose a day of the week')
  .max(6, 'Choose a day of the week');

/** The weekday of a calendar date; the date is read as a UTC midnight, so no zone or DST shifts it. */
export function weekdayOf(isoDate: string): number {
  return new Date(`${isoDate}T00:00:00Z`).getUTCDay();
}

/** "Thursday, November 26" (long) or "Thu, Nov 26" (short): a calendar date as people read it, whatever the reader's zone. */
export function calendarDateLabel(isoDate: string, style: 'long' | 'short' = 'long'): string {
  return new Date(`${isoDate}T12:00:00Z`).toLocaleDateString('en-US', { weekday: style, month: style, day: 'numeric', timeZone: 'UTC' });
}

/**
 * The days a client planned not to spark: one weekly rest day (or none) and the pause days taken. A rest day
 * chosen today applies from today (`restWeekdayFrom`); the days before keep the one chosen before
 * (`earlierRestWeekday`), so a missed day cannot be turned into a rest day afterwards.
 */
export interface RestCalendar {
  restWeekday: number | null;
  restWeekdayFrom?: string | null;
  earlierRestWeekday?: number | null;
  pauseDays: readonly string[];
}

export const noRestDays: RestCalendar = { restWeekday: null, pauseDays: [] };

/** Why a date is skipped by the streak: the weekly rest day, a pause day, or not at all. */
export function restKindOf(calendar: RestCalendar, isoDate: string): 'rest' | 'pause' | null {
  const restWeekday = calendar.restWeekdayFrom && isoDate < calendar.restWeekdayFrom ? (calendar.earlierRestWeekday ?? null) : calendar.restWeekday;
  if (restWeekday !== null && weekdayOf(isoDate) === restWeekday) return 'rest';
  return calendar.pauseDays.includes(isoDate) ? 'pause' : null;
}

/** The streak's view of the calendar: a rest or pause day is stepped over. */
export function skippedBy(calendar: RestCalendar): SkippedDay {
  return (isoDate) => restKindOf(calendar, isoDate) !== null;
}

/** The 14-day window of the evolution that holds `isoDate`: windows start on the evolution's first day. */
export function pauseWindowOf(evolutionStartDate: string, isoDate: string): { start: string; end: string } {
  const index = Math.floor(Math.max(0, daysBetween(evolutionStartDate, isoDate)) / PAUSE_WINDOW_DAYS);
  const start = addDays(evolutionStartDate, index * PAUSE_WINDOW_DAYS);
  return { start, end: addDays(start, PAUSE_WINDOW_DAYS - 1) };
}

/** Pause days still free in the window holding `isoDate`. */
export function pauseDaysLeft(allowance: number, evolutionStartDate: string, pauseDays: readonly string[], isoDate: string): number {
  const window = pauseWindowOf(evolutionStartDate, isoDate);
  const used = pauseDays.filter((day) => day >= window.start && day <= window.end).length;
  return Math.max(0, allowance - used);
}

/** What the client home and Manage Client show: the rest day, the pause days of this evolution, the allowance. */
export const restDaysSchema = z.object({
  restWeekday: weekdaySchema.nullable(),
  /** Since when `restWeekday` applies (null: always); before it, `earlierRestWeekday` did. */
  restWeekdayFrom: isoDateSchema.nullable(),
  earlierRestWeekday: weekdaySchema.nullable(),
  /** Pause days a client may take in each 14-day window of the evolution (the coach sets it). */
  pauseDaysAllowance: z.number().int(),
  windowDays: z.number().int(),
  /** The window holding the client's today, and the pause days still free in it. */
  window: z.object({ start: isoDateSchema, end: isoDateSchema }),
  pauseDaysLeft: z.number().int(),
  /** This evolution's pause days, oldest first: the ones before today are used, the rest upcoming. */
  pauseDays: z.array(isoDateSchema),
  /** The client's local today when this was read, so "upcoming" means the same on every screen. */
  today: isoDateSchema,
});
export type RestDays = z.infer<typeof restDaysSchema>;

/** Body of `PUT /api/progress/me/rest-day`: the weekly rest day, or null for none. */
export const restDayBodySchema = z.object({ restWeekday: weekdaySchema.nullable() }).strict();
export const setRestDayRequestSchema = restDayBodySchema.extend({ userId: uuidSchema }).strict();

/** Body of `POST /api/progress/me/pause-days`: a date today or later, in the client's own calendar. */
export const pauseDayBodySchema = z.object({ date: isoDateSchema }).strict();
export const takePauseDayRequestSchema = pauseDayBodySchema.extend({ userId: uuidSchema }).strict();

/** Body of `PUT /api/coach/clients/:userId/pause-allowance`. */
export const pauseAllowanceBodySchema = z
  .object({
    pauseDaysAllowance: z.coerce
      .number({ error: 'Pause days must be a whole number' })
      .int('Pause days must be a whole number')
      .min(0, `Between 0 and ${MAX_PAUSE_DAYS_ALLOWANCE} days`)
      .max(MAX_PAUSE_DAYS_ALLOWANCE, `Between 0 and ${MAX_PAUSE_DAYS_ALLOWANCE} days`),
  })
  .strict();
export type PauseAllowanceBody = z.input<typeof pauseAllowanceBodySchema>;
export const setPauseAllowanceRequestSchema = pauseAllowanceBodySchema.extend({ userId: uuidSchema }).strict();
