import type { CoachNote, PrivateNote } from '@spark/contracts';
import type { DataSource } from 'typeorm';

export interface CoachNoteRow {
  id: string;
  user_id: string;
  coach_id: string | null;
  message: string;
  is_pinned: boolean;
  created_at: Date;
}

export interface PrivateNoteRow {
  id: string;
  user_id: string;
  coach_id: string;
  note: string;
  created_at: Date;
}

export const coachNoteColumns = 'id, user_id, coach_id, message, is_pinned, created_at';
const privateNoteColumns = 'id, user_id, coach_id, note, created_at';

export const toCoachNote = (row: CoachNoteRow): CoachNote => ({
  id: row.id,
  userId: row.user_id,
  coachId: row.coach_id,
  message: row.message,
  isPinned: row.is_pinned,
  createdAt: row.created_at.toISOString(),
});

export const toPrivateNote = (row: PrivateNoteRow): PrivateNote => ({
  id: row.id,
  userId: row.user_id,
  coachId: row.coach_id,
  note: row.note,
  createdAt: row.created_at.toISOString(),
});

export class NotesRepository {
  constructor(private readonly dataSource: DataSource) {}

  async addCoachNote(note: { userId: string; coachId: string; message: string; isPinned: boolean }): Promise<CoachNoteRow> {
    const rows: CoachNoteRow[] = await this.dataSource.query(
      `INSERT INTO progress.coach_notes (user_id, coach_id, message, is_pinned) VALUES ($1, $2, $3, $4) RETURNING ${coachNoteColumns}`,
      [note.userId, note.coachId, note.message, note.isPinned],
    );
    return rows[0] as CoachNoteRow;
  }

  async addPrivateNote(note: { userId: string; coachId: string; note: string }): Promise<PrivateNoteRow> {
    const rows: PrivateNoteRow[] = await this.dataSource.query(
      `INSERT INTO progress.coach_private_notes (user_id, coach_id, note) VALUES ($1, $2, $3) RETURNING ${privateNoteColumns}`,
      [note.userId, note.coachId, note.note],
    );
    return rows[0] as PrivateNoteRow;
  }

  async listPrivateNotes(userId: string): Promise<PrivateNoteRow[]> {
    return this.dataSource.query(`SELECT ${privateNoteColumns} FROM progress.coach_private_notes WHERE user_id = $1 ORDER BY created_at DESC LIMIT 100`, [
      userId,
    ]);
  }
}
