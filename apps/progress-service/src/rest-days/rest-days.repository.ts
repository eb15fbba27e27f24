import type { DataSource, EntityManager } from 'typeorm';
import { type ProgressRow, progressColumns } from '../progress/progress-row';

/** The progress row with the client's local today (a zone the database does not know reads as UTC). */
export type RestDaysRow = ProgressRow & { today: string };

const withToday = `${progressColumns}, to_char((now() AT TIME ZONE progress.known_time_zone(time_zone))::date, 'YYYY-MM-DD') AS today`;

export class RestDaysRepository {
  constructor(private readonly dataSource: DataSource) {}

  async find(userId: string, manager: EntityManager = this.dataSource.manager, lock = false): Promise<RestDaysRow | undefined> {
    const rows: RestDaysRow[] = await manager.query(`SELECT ${withToday} FROM progress.user_progress WHERE user_id = $1${lock ? ' FOR UPDATE' : ''}`, [userId]);
    return rows[0];
  }

  /** Pause days from `from` to `to`, both included, oldest first. */
  async pauseDays(userId: string, from: string, to: string, manager: EntityManager = this.dataSource.manager): Promise<string[]> {
    const rows: { day: string }[] = await manager.query(
      `SELECT to_char(pause_date, 'YYYY-MM-DD') AS day FROM progress.pause_days WHERE user_id = $1 AND pause_date BETWEEN $2 AND $3 ORDER BY pause_date`,
      [userId, from, to],
    );
    return rows.map((row) => row.day);
  }

  /** Runs `work` in one transaction holding the client's progress row, so two pause days cannot both take the last one left. */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  async addPauseDay(manager: EntityManager, userId: string, date: string): Promise<void> {
    await manager.query(`INSERT INTO progress.pause_days (user_id, pause_date) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [userId, date]);
  }

  /** The new rest day applies from the client's today; the days before keep the earlier one (a second change today keeps it too). */
  async setRestWeekday(userId: string, restWeekday: number | null): Promise<boolean> {
    const [rows]: [unknown[], number] = await this.dataSource.query(
      `UPDATE progress.user_progress SET
         earlier_rest_weekday = CASE WHEN rest_weekday_from = local.today THEN earlier_rest_weekday ELSE rest_weekday END,
         rest_weekday_from = local.today, rest_weekday = $2, updated_at = now()
       FROM (SELECT (now() AT TIME ZONE progress.known_time_zone(time_zone))::date AS today FROM progress.user_progress WHERE user_id = $1) local
       WHERE user_id = $1 RETURNING user_id`,
      [userId, restWeekday],
    );
    return rows.length > 0;
  }

  async setPauseDaysAllowance(userId: string, allowance: number): Promise<boolean> {
    const [rows]: [unknown[], number] = await this.dataSource.query(
      `UPDATE progress.user_progress SET pause_days_allowance = $2, updated_at = now() WHERE user_id = $1 RETURNING user_id`,
      [userId, allowance],
    );
    return rows.length > 0;
  }
}
