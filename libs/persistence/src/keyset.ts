import { DomainError } from '@spark/errors';

/**
 * Keyset pages for lists ordered by (key DESC, id DESC). A cursor is opaque to clients: base64url of
 * "<key>|<uuid>", the last row's key as PostgreSQL prints it (`created_at::text`, exact to the microsecond, where
 * a JavaScript Date would lose the microseconds and skip rows) and its id.
 */
export interface KeysetPosition {
  key: string;
  id: string;
}

/** A row read for a page: its key as text beside its columns (`created_at::text AS cursor_at`). */
export type Keyed<Row> = Row & { cursor_at: string };

/** What a list's key looks like: a timestamp, or a sort value of digits and dashes (a count, a date). */
export type KeyKind = 'timestamp' | 'digits';

const keyIsValid: Record<KeyKind, (key: string) => boolean> = {
  timestamp: (key) => !Number.isNaN(Date.parse(key)),
  digits: (key) => /^-?[\d-]+$/.test(key),
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const encodeCursor = (position: KeysetPosition): string => Buffer.from(`${position.key}|${position.id}`).toString('base64url');

/** The position a cursor names, or undefined without one. A cursor that is not ours is a 400: it never reaches SQL. */
export function decodeCursor(cursor: string | undefined, kind: KeyKind = 'timestamp'): KeysetPosition | undefined {
  if (!cursor) return undefined;
  const [key, id, ...rest] = Buffer.from(cursor, 'base64url').toString().split('|');
  if (!key || !id || rest.length > 0 || !UUID.test(id) || !keyIsValid[kind](key)) {
    throw new DomainError('VALIDATION_FAILED', 'The page cursor is invalid.', { fieldErrors: { cursor: ['Invalid cursor'] } });
  }
  return { key, id };
}

/**
 * The rows a page reads (`limit + 1`), to write into the statement as `LIMIT n` rather than pass as a parameter:
 * PostgreSQL prices a generic plan with `LIMIT $1` as if it read a tenth of the table, so a prepared statement with
 * a parameter there is planned anew on every execution. Checked to be a whole number, so the text is only digits.
 */
export function rowsToRead(limit: number): number {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new Error(`Not a page size: ${limit}`);
  return limit + 1;
}

/** One page of `rows` read with `limit + 1`: the first `limit`, and the cursor after them when more exist. */
export function pageOf<Row>(rows: readonly Row[], limit: number, positionOf: (row: Row) => KeysetPosition): { items: Row[]; nextCursor: string | null } {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(positionOf(last)) : null };
}

/** The position after a row read as `Keyed` with an `id`. */
export const positionOfRow = (row: { cursor_at: string; id: string }): KeysetPosition => ({ key: row.cursor_at, id: row.id });
