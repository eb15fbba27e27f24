import { addDays, type NudgeDraft, type PayloadOf, type WeeklyCheckIn } from '@spark/contracts';
import type { CoachClientsRepository } from '../coach/coach-clients.repository';
import { toSpark } from '../sparks/sparks.repository';
import { coachingFactsOf, longestRunOf, missedDaysOf, WEEK_DAYS, weekOf } from './coaching-facts';
import type { CoachingRepository, WeekSparkRow } from './coaching.repository';
import type { CoachingDraftWriter } from './draft-writer';
import { clientNotFound } from '../progress/client-not-found';

/** The pause days the client took from `from` to `to` (rest-days.repository.ts); a nudge names one taken during a silence. */
export type PauseDaysSource = (userId: string, from: string, to: string) => Promise<string[]>;

/** The coach's drafted nudge and Friday check-in for one client: read-only, nothing is sent from here. */
export class CoachingService {
  constructor(
    private readonly clients: CoachClientsRepository,
    private readonly coaching: CoachingRepository,
    private readonly writer: CoachingDraftWriter,
    private readonly pauseDays: PauseDaysSource,
  ) {}

  async nudgeDraft({ userId }: PayloadOf<'progress.coach-nudge-draft'>): Promise<NudgeDraft> {
    const { facts } = await this.read(userId);
    return { ...(await this.writer.nudge(facts)), facts };
  }

  async weeklyCheckIn({ userId }: PayloadOf<'progress.coach-weekly-check-in'>): Promise<WeeklyCheckIn> {
    const { row, facts, week, sparks } = await this.read(userId);
    const checkInWeek = {
      sparkDays: week.filter((day) => day.sparks > 0).length,
      missedDays: missedDaysOf(week, row.evolution_start_date, row.today),
      longestRun: longestRunOf(week),
      clientNotes: sparks.map((spark) => spark.note?.trim()).filter((note): note is string => !!note),
    };
    const written = await this.writer.checkIn(facts, checkInWeek);
    return {
      weekStart: week[0]?.date ?? row.today,
      weekEnd: row.today,
      days: week,
      sparks: sparks.map(toSpark),
      currentStreak: facts.currentStreak,
      missedDays: checkInWeek.missedDays,
      longestRun: checkInWeek.longestRun,
      clientNotes: checkInWeek.clientNotes,
      summary: written.message,
      writer: written.writer,
      facts,
    };
  }

  private async read(userId: string) {
    const row = await this.clients.find(userId);
    if (!row) throw clientNotFound();
    const weekStart = addDays(row.today, 1 - WEEK_DAYS);
    const [answers, sparks, pauseDays] = await Promise.all([
      this.coaching.answers(userId),
      this.coaching.weekSparks(userId, row.time_zone, weekStart),
      this.pauseDays(userId, weekStart, row.today),
    ]);
    const week = weekOf(row.today, countPerDay(sparks), pauseDays);
    const record = {
      fullName: row.full_name,
      goal: row.transformation_goal,
      streakCount: row.streak_count,
      evolutionNumber: row.evolution_number,
      evolutionStartDate: row.evolution_start_date,
      evolutionEndDate: row.evolution_end_date,
      lastSparkDate: row.last_spark_date,
      today: row.today,
      idleDays: row.idle_days,
    };
    return { row, facts: coachingFactsOf(record, answers, week, pauseDays), week, sparks };
  }
}

function countPerDay(sparks: WeekSparkRow[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const spark of sparks) counts.set(spark.day, (counts.get(spark.day) ?? 0) + 1);
  return counts;
}
