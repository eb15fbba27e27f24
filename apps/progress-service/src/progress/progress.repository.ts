import type { DataSource } from 'typeorm';
import { type CoachNoteRow, coachNoteColumns } from '../notes/notes.repository';
import { type ProgressRow, progressColumns } from './progress-row';

export class ProgressRepository {
  constructor(private readonly dataSource: DataSource) {}

  async findProgress(userId: string): Promise<ProgressRow | undefined> {
    const rows: ProgressRow[] = await this.dataSource.query(`SELECT ${progressColumns} FROM progress.user_progress WHERE user_id = $1`, [userId]);
    return rows[0];
  }

  /** select coach_notes by user_id, is_pinned true, newest first, limit 1 (docs/product.md §7). */
  async findLatestPinnedNote(userId: string): Promise<CoachNoteRow | undefined> {
    const rows: CoachNoteRow[] = await this.dataSource.query(
      `SELECT ${coachNoteColumns} FROM progress.coach_notes WHERE user_id = $1 AND is_pinned ORDER BY created_at DESC LIMIT 1`,
      [userId],
    );
    return rows[0];
  }
}
