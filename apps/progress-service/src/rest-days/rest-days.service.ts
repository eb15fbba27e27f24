import { calendarDateLabel, type PayloadOf, PAUSE_WINDOW_DAYS, pauseDaysLeft, pauseWindowOf, restKindOf, type RestDays, weekdayNames } from '@spark/contracts';
import { DomainError } from '@spark/errors';
import type { EntityManager } from 'typeorm';
import type { RestDaysRepository, RestDaysRow } from './rest-days.repository';
import { clientNotFound } from '../progress/client-not-found';

const invalidDate = (message: string) => new DomainError('VALIDATION_FAILED', message, { fieldErrors: { date: [message] } });

/** The client's rest day and pause days: what the home shows, what the client marks, what the coach allows. */
export class RestDaysService {
  constructor(private readonly repository: RestDaysRepository) {}

  /** The rest days of a client, or null before their progress row exists (onboarding still in flight). */
  async of(userId: string): Promise<RestDays | null> {
    const row = await this.repository.find(userId);
    return row ? this.view(row) : null;
  }

  async setRestDay({ userId, restWeekday }: PayloadOf<'progress.set-rest-day'>): Promise<RestDays> {
    if (!(await this.repository.setRestWeekday(userId, restWeekday))) throw clientNotFound();
    return this.required(userId);
  }

  async setPauseDaysAllowance({ userId, pauseDaysAllowance }: PayloadOf<'progress.set-pause-allowance'>): Promise<RestDays> {
    if (!(await this.repository.setPauseDaysAllowance(userId, pauseDaysAllowance))) throw clientNotFound();
    return this.required(userId);
  }

  /**
   * A pause day today or later within this evolution, on a day not sparked and not the rest day, while the
   * 14-day window holding it has one left (409 when not). Marking the same day again changes nothing.
   */
  takePauseDay({ userId, date }: PayloadOf<'progress.take-pause-day'>): Promise<RestDays> {
    return this.repository.transaction(async (manager) => {
      const row = await this.repository.find(userId, manager, true);
      if (!row) throw clientNotFound();
      const taken = await this.repository.pauseDays(userId, row.evolution_start_date, row.evolution_end_date, manager);
      if (taken.includes(date)) return this.view(row, manager);
      if (date < row.today) throw invalidDate('A pause day is today or later: past days cannot be paused.');
      if (date > row.evolution_end_date)
        throw invalidDate(`Pause days stay within this evolution, which ends on ${calendarDateLabel(row.evolution_end_date)}.`);
      if (row.last_spark_date && date <= row.last_spark_date) throw invalidDate('You already sparked that day, so it counts toward your streak.');
      if (restKindOf({ restWeekday: row.rest_weekday, pauseDays: [] }, date)) {
        throw invalidDate(`${weekdayNames[row.rest_weekday ?? 0]} is already your rest day.`);
      }
      if (pauseDaysLeft(row.pause_days_allowance, row.evolution_start_date, taken, date) === 0) {
        const window = pauseWindowOf(row.evolution_start_date, date);
        throw new DomainError(
          'CONFLICT',
          `You have used your ${row.pause_days_allowance === 1 ? 'pause day' : `${row.pause_days_allowance} pause days`} for the ${PAUSE_WINDOW_DAYS} days until ${calendarDateLabel(window.end)}. Your coach sets how many you get.`,
        );
      }
      await this.repository.addPauseDay(manager, userId, date);
      return this.view(row, manager);
    });
  }

  private async required(userId: string): Promise<RestDays> {
    const view = await this.of(userId);
    if (!view) throw clientNotFound();
    return view;
  }

  private async view(row: RestDaysRow, manager?: EntityManager): Promise<RestDays> {
    const pauseDays = await this.repository.pauseDays(row.user_id, row.evolution_start_date, row.evolution_end_date, manager);
    return {
      restWeekday: row.rest_weekday,
      restWeekdayFrom: row.rest_weekday_from,
      earlierRestWeekday: row.earlier_rest_weekday,
      pauseDaysAllowance: row.pause_days_allowance,
      windowDays: PAUSE_WINDOW_DAYS,
      window: pauseWindowOf(row.evolution_start_date, row.today),
      pauseDaysLeft: pauseDaysLeft(row.pause_days_allowance, row.evolution_start_date, pauseDays, row.today),
      pauseDays,
      today: row.today,
    };
  }
}
