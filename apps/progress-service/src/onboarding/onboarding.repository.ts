import { cycleLengthDays, type OnboardingData } from '@spark/contracts';
import type { DataSource } from 'typeorm';
import { accountErased } from '@spark/service-runtime';
import { erasureLockSql, notErasedSql } from '../erasure/progress-erasure';

export interface EvolutionRow {
  evolution_number: number;
  evolution_start_date: string;
  evolution_end_date: string;
  status: string;
  custom_evolution_days: number | null;
}

export interface NewProgress {
  userId: string;
  email: string;
  fullName: string;
  transformationGoal: string;
  customEvolutionDays: number | null;
  timeZone: string;
  startDate: string;
  endDate: string;
}

export class OnboardingRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Creates the client's progress row with its first evolution and stores the answers (replacing earlier ones), in one
   * transaction. A repeated onboarding updates name and goal but keeps the evolution already running, so a second
   * submit never restarts the clock. The record is made once the row is written, for the row's length: a coach's preset
   * applies as it is inserted, and a coach may have changed the length since. Refused for a client just erased.
   */
  async save(progress: NewProgress, recordFor: (evolutionDays: number) => OnboardingData): Promise<{ evolution: EvolutionRow; record: OnboardingData }> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(erasureLockSql, [progress.userId]);
      const rows: EvolutionRow[] = await manager.query(
        `INSERT INTO progress.user_progress
           (user_id, email, full_name, transformation_goal, custom_evolution_days, evolution_start_date, evolution_end_date, time_zone)
         SELECT $1, $2, $3, $4, $5, $6, $7, $8 WHERE ${notErasedSql}
         ON CONFLICT (user_id) DO UPDATE SET
           email = EXCLUDED.email, full_name = EXCLUDED.full_name,
           transformation_goal = EXCLUDED.transformation_goal, updated_at = now()
         RETURNING evolution_number, to_char(evolution_start_date, 'YYYY-MM-DD') AS evolution_start_date,
           to_char(evolution_end_date, 'YYYY-MM-DD') AS evolution_end_date, status, custom_evolution_days`,
        [
          progress.userId,
          progress.email,
          progress.fullName,
          progress.transformationGoal,
          progress.customEvolutionDays,
          progress.startDate,
          progress.endDate,
          progress.timeZone,
        ],
      );
      const evolution = rows[0];
      // Its client was erased while the answers were on their way.
      if (!evolution) throw accountErased();
      const record = recordFor(cycleLengthDays(evolution.custom_evolution_days));
      await manager.query(
        `INSERT INTO progress.onboarding_data (user_id, data, completed_at) VALUES ($1, $2, $3)
         ON CONFLICT (user_id) DO UPDATE SET data = EXCLUDED.data, completed_at = EXCLUDED.completed_at`,
        [record.user_id, JSON.stringify(record), record.completed_at],
      );
      return { evolution, record };
    });
  }
}
