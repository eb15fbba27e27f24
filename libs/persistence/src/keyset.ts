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

/** What a list's key is: a timestamp, a calendar date or a whole number, as PostgreSQL prints it. */
export type KeyKind = 'timestamp' | 'date' | 'integer';

const isLeapYear = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** A day of the calendar PostgreSQL keeps: no year 0, no 30 February. */
function isCalendarDate(year: number, month: number, day: number): boolean {
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  return day <= (month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1]);
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// `timestamptz::text`: date, time to the microsecond, and the session's UTC offset in hours (then minutes, seconds).
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2}) ([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,6})?[+-](0\d|1[0-5])(:[0-5]\d){0,2}$/;
const INT4 = /^-?\d{1,9}$/;

const dateOf = (match: RegExpExecArray | null) => match !== null && isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3]));

// A key that passes reaches SQL cast to its kind: anything PostgreSQL would refuse there must be a 400 here.
const keyIsValid: Record<KeyKind, (key: string) => boolean> = {
  timestamp: (key) => dateOf(TIMESTAMP.exec(key)),
  date: (key) => dateOf(DATE.exec(key)),
  integer: (key) => INT4.test(key),
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
