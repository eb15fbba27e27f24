import type { Progress, RestCalendar } from '@spark/contracts';

/** user_progress as SQL returns it with `progressColumns` (dates already as YYYY-MM-DD text). */
export interface ProgressRow {
  user_id: string;
  full_name: string | null;
  transformation_goal: string | null;
  spark_count: number;
  streak_count: number;
  evolution_number: number;
  evolution_start_date: string;
  evolution_end_date: string;
  status: string;
  custom_evolution_days: number | null;
  last_spark_date: string | null;
  time_zone: string;
  rest_weekday: number | null;
  rest_weekday_from: string | null;
  earlier_rest_weekday: number | null;
  pause_days_allowance: number;
}

// to_char keeps dates as calendar dates: node-pg would turn a `date` into a local-midnight Date.
export const progressColumns = `user_id, full_name, transformation_goal, spark_count, streak_count, evolution_number,
  to_char(evolution_start_date, 'YYYY-MM-DD') AS evolution_start_date,
  to_char(evolution_end_date, 'YYYY-MM-DD') AS evolution_end_date,
  status, custom_evolution_days, to_char(last_spark_date, 'YYYY-MM-DD') AS last_spark_date, time_zone,
  rest_weekday, to_char(rest_weekday_from, 'YYYY-MM-DD') AS rest_weekday_from, earlier_rest_weekday, pause_days_allowance`;

export function toProgress(row: ProgressRow): Progress {
  return {
    userId: row.user_id,
    fullName: row.full_name,
    transformationGoal: row.transformation_goal,
    sparkCount: row.spark_count,
    streakCount: row.streak_count,
    evolutionNumber: row.evolution_number,
    evolutionStartDate: row.evolution_start_date,
    evolutionEndDate: row.evolution_end_date,
    status: row.status,
    customEvolutionDays: row.custom_evolution_days,
    lastSparkDate: row.last_spark_date,
    timeZone: row.time_zone,
    restWeekday: row.rest_weekday,
    pauseDaysAllowance: row.pause_days_allowance,
  };
}

/** The row's rest days as the streak arithmetic reads them, with the pause days the caller loaded. */
export function restCalendarOf(row: ProgressRow, pauseDays: readonly string[]): RestCalendar {
  return { restWeekday: row.rest_weekday, restWeekdayFrom: row.rest_weekday_from, earlierRestWeekday: row.earlier_rest_weekday, pauseDays };
}
