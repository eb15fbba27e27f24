import { addDays, type CoachingFacts, currentStreak, daysBetween, firstNameOf, type NudgeSituation, type SparkRun } from '@spark/contracts';
import { SLIPPING_AFTER_IDLE_DAYS } from '../coach/attention';

/** The client's record as the drafts read it (user_progress plus the local today). */
export interface CoachingRecord {
  fullName: string | null;
  goal: string | null;
  streakCount: number;
  evolutionNumber: number;
  evolutionStartDate: string;
  evolutionEndDate: string;
  lastSparkDate: string | null;
  today: string;
  idleDays: number;
}

/** What the client answered at onboarding, when they did. */
export interface CoachingAnswers {
  fullName: string;
  goal: string;
  challenge: string;
}

/** One local day of the check-in week and its sparks. */
export interface WeekDay {
  date: string;
  sparks: number;
  paused: boolean;
}

export const WEEK_DAYS = 7;

function situationOf(daysSinceLastSpark: number | null): NudgeSituation {
  if (daysSinceLastSpark === null) return 'never-sparked';
  if (daysSinceLastSpark < SLIPPING_AFTER_IDLE_DAYS) return 'doing-well';
  return daysSinceLastSpark === SLIPPING_AFTER_IDLE_DAYS ? 'streak-broke' : 'long-silence';
}

/** The seven local days ending today, oldest first, with the sparks of each. */
export function weekOf(today: string, sparksPerDay: ReadonlyMap<string, number>, pauseDays: readonly string[]): WeekDay[] {
  return Array.from({ length: WEEK_DAYS }, (_, index) => {
    const date = addDays(today, index - (WEEK_DAYS - 1));
    return { date, sparks: sparksPerDay.get(date) ?? 0, paused: pauseDays.includes(date) };
  });
}

/**
 * Everything a draft may say about the client. The streak that ended is the stored streak once it is no
 * longer alive: the counter keeps its last length until the next spark starts a new run.
 */
export function coachingFactsOf(record: CoachingRecord, answers: CoachingAnswers | null, week: WeekDay[], pauseDays: string[]): CoachingFacts {
  const daysSinceLastSpark = record.lastSparkDate ? daysBetween(record.lastSparkDate, record.today) : null;
  const streak = currentStreak({ streakCount: record.streakCount, lastSparkDate: record.lastSparkDate }, record.today);
  const ended = record.lastSparkDate && streak === 0 && record.streakCount > 0;
  const evolutionDays = Math.max(1, daysBetween(record.evolutionStartDate, record.evolutionEndDate));
  return {
    firstName: firstNameOf(record.fullName) ?? firstNameOf(answers?.fullName) ?? 'there',
    situation: situationOf(daysSinceLastSpark),
    today: record.today,
    idleDays: Math.max(0, record.idleDays),
    daysSinceLastSpark,
    currentStreak: streak,
    endedStreak:
      ended && record.lastSparkDate
        ? { days: record.streakCount, from: addDays(record.lastSparkDate, 1 - record.streakCount), to: record.lastSparkDate }
        : null,
    goal: record.goal?.trim() || answers?.goal.trim() || null,
    challenge: answers?.challenge.trim() || null,
    evolutionNumber: record.evolutionNumber,
    evolutionDay: Math.min(evolutionDays, Math.max(1, daysBetween(record.evolutionStartDate, record.today) + 1)),
    evolutionDays,
    sparksThisWeek: week.reduce((sum, day) => sum + day.sparks, 0),
    pauseDays,
  };
}

/** The longest run of consecutive spark days in the week (the latest of equal ones). */
export function longestRunOf(week: WeekDay[]): SparkRun | null {
  let best: SparkRun | null = null;
  let startIndex = -1;
  week.forEach((day, index) => {
    if (!day.sparks) {
      startIndex = -1;
      return;
    }
    if (startIndex < 0) startIndex = index;
    const days = index - startIndex + 1;
    if (!best || days >= best.days) best = { days, from: week[startIndex]?.date ?? day.date, to: day.date };
  });
  return best;
}

/** Days of the week without a spark that count: not paused, not before the cycle began, not today (still going). */
export const missedDaysOf = (week: WeekDay[], cycleStart: string, today: string) =>
  week.filter((day) => !day.sparks && !day.paused && day.date >= cycleStart && day.date !== today).map((day) => day.date);
