import type { CoachNote, PrivateNote } from '@spark/contracts';
import { type Keyed, type KeysetPosition, rowsToRead } from '@spark/persistence';
import type { DataSource } from 'typeorm';
import { clientNotFound } from '../progress/client-not-found';

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

/**
 * The client a note is written about, `$1`, held until the note commits: a note is only for a client with a progress
 * row, and an erasure deleting that row meanwhile waits for the note, which its second pass then deletes.
 */
const ofClientSql = 'FROM progress.user_progress WHERE user_id = $1 FOR KEY SHARE';

/** The row a note's insert returned; none when the client is unknown or erased. */
function written<Row>(rows: Row[]): Row {
  if (!rows[0]) throw clientNotFound();
  return rows[0];
}

export class NotesRepository {
  constructor(private readonly dataSource: DataSource) {}

  async addCoachNote(note: { userId: string; coachId: string; message: string; isPinned: boolean }): Promise<CoachNoteRow> {
    return written<CoachNoteRow>(
      await this.dataSource.query(
        `INSERT INTO progress.coach_notes (user_id, coach_id, message, is_pinned) SELECT user_id, $2, $3, $4 ${ofClientSql} RETURNING ${coachNoteColumns}`,
        [note.userId, note.coachId, note.message, note.isPinned],
      ),
    );
  }

  async addPrivateNote(note: { userId: string; coachId: string; note: string }): Promise<PrivateNoteRow> {
    return written<PrivateNoteRow>(
      await this.dataSource.query(
        `INSERT INTO progress.coach_private_notes (user_id, coach_id, note) SELECT user_id, $2, $3 ${ofClientSql} RETURNING ${privateNoteColumns}`,
        [note.userId, note.coachId, note.note],
      ),
    );
  }

  /** Newest first, a page at a time after `after`; (created_at, id) so notes written in the same instant page apart. */
  async listPrivateNotes(userId: string, limit: number, after?: KeysetPosition): Promise<Keyed<PrivateNoteRow>[]> {
    const condition = after ? 'AND (created_at, id) < ($2::timestamptz, $3::uuid)' : '';
    return this.dataSource.query(
      `SELECT ${privateNoteColumns}, created_at::text AS cursor_at FROM progress.coach_private_notes
       WHERE user_id = $1 ${condition}
       ORDER BY created_at DESC, id DESC LIMIT ${rowsToRead(limit)}`,
      after ? [userId, after.key, after.id] : [userId],
    );
  }
}
