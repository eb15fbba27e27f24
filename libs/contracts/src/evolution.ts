/**
 * The one place the evolution arithmetic lives: pure functions shared by the client home, the coach
 * dashboard and the progress-service, so every screen shows the same numbers.
 * Dates are calendar dates (`YYYY-MM-DD`) in the client's own time zone.
 */

export const DEFAULT_EVOLUTION_DAYS = 90;
const DAY_MS = 24 * 60 * 60 * 1000;

/** custom_evolution_days overrides the default; empty (null) means 90. */
export function cycleLengthDays(customEvolutionDays: number | null | undefined): number {
  return customEvolutionDays && customEvolutionDays > 0 ? customEvolutionDays : DEFAULT_EVOLUTION_DAYS;
}

// Building an Intl.DateTimeFormat costs far more than using one: one per zone, made once. The cap only
// bounds what odd spellings of zones (Intl accepts any letter case) could make it hold.
const dateFormats = new Map<string, Intl.DateTimeFormat>();
function dateFormat(timeZone: string): Intl.DateTimeFormat {
  let format = dateFormats.get(timeZone);
  if (!format) {
    // en-CA formats as YYYY-MM-DD; the zone's DST rules come from the runtime's tz database.
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    if (dateFormats.size >= 1000) dateFormats.clear();
    dateFormats.set(timeZone, format);
  }
  return format;
}

/** Whether `timeZone` is an IANA zone this runtime knows. */
export function isValidTimeZone(timeZone: string): boolean {
  try {
    dateFormat(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The calendar date an instant falls on in a time zone, as `YYYY-MM-DD`. */
export function localDate(instant: Date, timeZone: string): string {
  return dateFormat(timeZone).format(instant);
}

// Calendar dates compared as UTC midnights: no DST hour can make a day 23 or 25 hours long here.
const dayNumber = (isoDate: string) => Math.round(Date.parse(`${isoDate}T00:00:00Z`) / DAY_MS);

/** Whole calendar days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from);
}

/** `isoDate` moved by `days` calendar days. */
export function addDays(isoDate: string, days: number): string {
  return new Date((dayNumber(isoDate) + days) * DAY_MS).toISOString().slice(0, 10);
}

/**
 * Days left = ceiling of the days until the end date's midnight in the client's zone, minimum 0.
 * Any moment inside a day is a fraction short of whole days, so the ceiling is the calendar difference.
 */
export function daysLeft(evolutionEndDate: string, now: Date, timeZone: string): number {
  return Math.max(0, daysBetween(localDate(now, timeZone), evolutionEndDate));
}

/** Percent of the cycle behind the client, from the cycle's own length (see docs/decisions.md). */
export function percentComplete(left: number, customEvolutionDays: number | null | undefined): number {
  const length = cycleLengthDays(customEvolutionDays);
  const done = ((length - Math.min(left, length)) / length) * 100;
  return Math.min(100, Math.max(0, Math.round(done)));
}

export interface EvolutionInput {
  evolutionNumber: number;
  evolutionEndDate: string;
  customEvolutionDays: number | null;
}

export interface EvolutionView {
  /** Shown as "Evolution N" on the client home and the coach dashboard alike. */
  number: number;
  lengthDays: number;
  daysLeft: number;
  percentComplete: number;
}

export function evolutionView(progress: EvolutionInput, now: Date, timeZone: string): EvolutionView {
  const left = daysLeft(progress.evolutionEndDate, now, timeZone);
  return {
    number: progress.evolutionNumber,
    lengthDays: cycleLengthDays(progress.customEvolutionDays),
    daysLeft: left,
    percentComplete: percentComplete(left, progress.customEvolutionDays),
  };
}

export interface StreakState {
  streakCount: number;
  lastSparkDate: string | null;
}

/** Days the streak steps over: a client's rest and pause days (see `skippedBy` in rest-days.ts). */
export type SkippedDay = (isoDate: string) => boolean;
const nothingSkipped: SkippedDay = () => false;

// Whether every day strictly between two dates is skipped (true when none lie between).
function onlySkippedBetween(from: string, to: string, skipped: SkippedDay): boolean {
  for (let day = addDays(from, 1); day < to; day = addDays(day, 1)) if (!skipped(day)) return false;
  return true;
}

/** How long a device may hold a capture (offline, or while Spark is down) and still have it dated when it was taken. */
export const CAPTURE_HELD_DAYS = 7;

/**
 * When a spark was taken: `recordedAt` less how long its device held it, which the device measures by its own clock
 * (from `takenAt` to `sentAt`, both its times), so a clock that is off by any amount dates it right. A capture
 * recorded after midnight is then still the day it was taken. Held for longer than `CAPTURE_HELD_DAYS`, for a
 * negative time, or without both times (an app that does not send them), it is dated when it is recorded.
 */
export function sparkTakenAt(device: { takenAt?: string; sentAt?: string }, recordedAt: Date): Date {
  const held = device.takenAt && device.sentAt ? Date.parse(device.sentAt) - Date.parse(device.takenAt) : Number.NaN;
  return held >= 0 && held <= CAPTURE_HELD_DAYS * DAY_MS ? new Date(recordedAt.getTime() - held) : recordedAt;
}

/**
 * The streak after a spark on `sparkDate` (the client's local date): the same day counts once,
 * the next day extends it, a gap starts again at 1 unless every day of the gap is `skipped` (a rest or
 * pause day neither breaks nor extends it). A spark dated before the last one (sent late by a second device, or
 * dated by a time zone further west) adds to the streak what it adds to the run of `sparkedDays` (the days already
 * sparked) that ends on the last spark day: a day that fills the gap a later spark had left mends the streak, a day
 * already sparked or beyond a gap changes nothing, and none ever shortens it. Without `sparkedDays` it changes nothing.
 */
export function streakAfterSpark(state: StreakState, sparkDate: string, skipped: SkippedDay = nothingSkipped, sparkedDays?: readonly string[]): StreakState {
  if (!state.lastSparkDate) return { streakCount: 1, lastSparkDate: sparkDate };
  const gap = daysBetween(state.lastSparkDate, sparkDate);
  if (gap < 0 && sparkedDays && !sparkedDays.includes(sparkDate)) {
    const added = runEndingOn(state.lastSparkDate, [...sparkedDays, sparkDate], skipped) - runEndingOn(state.lastSparkDate, sparkedDays, skipped);
    return { streakCount: Math.max(1, state.streakCount + added), lastSparkDate: state.lastSparkDate };
  }
  if (gap <= 0) return { streakCount: Math.max(1, state.streakCount), lastSparkDate: state.lastSparkDate };
  return { streakCount: onlySkippedBetween(state.lastSparkDate, sparkDate, skipped) ? state.streakCount + 1 : 1, lastSparkDate: sparkDate };
}

// How many sparked days the run ending on `lastDay` holds, walked back over skipped days. Only the difference the
// late day makes is added to the stored streak: the stored count was built with the rest days of its time, and the
// calendar keeps only the last two choices of rest day, so a full recount could read an old missed day as rest.
function runEndingOn(lastDay: string, sparkedDays: readonly string[], skipped: SkippedDay): number {
  const earlier = [...new Set(sparkedDays)].filter((day) => day < lastDay).sort((a, b) => (a < b ? 1 : -1));
  let count = 1;
  let later = lastDay;
  for (const day of earlier) {
    if (!onlySkippedBetween(day, later, skipped)) break;
    count++;
    later = day;
  }
  return count;
}

/** The streak as shown today: alive when every day between the last spark and today was skipped (or none), else 0. */
export function currentStreak(state: StreakState, today: string, skipped: SkippedDay = nothingSkipped): number {
  if (!state.lastSparkDate) return 0;
  return onlySkippedBetween(state.lastSparkDate, today, skipped) ? state.streakCount : 0;
}

const milestones: Record<number, string> = {
  1: 'Your first spark! Your evolution has officially begun.',
  5: '5 sparks! You are building real momentum.',
  10: '10 sparks! Double digits: this is becoming a habit.',
  25: '25 sparks! A quarter-century of transformation moments.',
  50: '50 sparks! Halfway to a hundred: keep showing up.',
  100: '100 sparks! A true transformation milestone.',
};

/** The toast after a capture: a milestone at 1, 5, 10, 25, 50 and 100, else the running count. */
export function milestoneMessage(sparkCount: number): { title: string; description: string } {
  const milestone = milestones[sparkCount];
  if (milestone) return { title: 'Milestone reached!', description: milestone };
  return { title: 'Spark captured!', description: `That's spark #${sparkCount} this cycle.` };
}

/** "Good morning" before 12, "Good afternoon" before 17, else "Good evening" (the device's clock). */
export function greetingFor(hour: number): string {
  if (hour < 12) return 'Good morning';
  if (hour < 17) return 'Good afternoon';
  return 'Good evening';
}

/** The first word of the full name, as docs/product.md §3 reads it. */
export function firstNameOf(fullName: string | null | undefined): string | null {
  const first = fullName?.trim().split(/\s+/)[0];
  return first ? first : null;
}
