import { decodeCursor, encodeCursor, pageOf, positionOfRow, rowsToRead } from './keyset';

const id = '7d1c2f4e-3b8a-4c6d-9e0f-1a2b3c4d5e6f';
const cursorOf = (text: string) => Buffer.from(text).toString('base64url');

describe('keyset cursors', () => {
  it("keep PostgreSQL's timestamp text exactly, microseconds included", () => {
    const position = { key: '2026-11-23 23:35:58.123456+00', id };
    expect(decodeCursor(encodeCursor(position))).toEqual(position);
  });

  it('are absent without a cursor', () => {
    expect(decodeCursor(undefined)).toBeUndefined();
    expect(decodeCursor('')).toBeUndefined();
  });

  it.each([
    ['not base64 of ours', 'garbage'],
    ['a key that is no timestamp', cursorOf(`yesterday|${id}`)],
    ['an id that is no uuid', cursorOf('2026-11-23 23:35:58+00|1 OR 1=1')],
    ['an extra field', cursorOf(`2026-11-23 23:35:58+00|${id}|x`)],
  ])('answer 400 with a cursor field error for %s', (_what, cursor) => {
    expect(() => decodeCursor(cursor)).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED', details: { fieldErrors: { cursor: ['Invalid cursor'] } } }),
    );
  });

  it.each(['2026-11-23 23:35:58+00', '2026-11-23 23:35:58.5+05:30', '2024-02-29 00:00:00-12', '0001-01-01 00:00:00+00'])(
    'take the timestamp %s as PostgreSQL prints one',
    (key) => expect(decodeCursor(cursorOf(`${key}|${id}`))).toEqual({ key, id }),
  );

  // Each of these passed Date.parse, reached SQL as a timestamptz, and PostgreSQL's refusal answered 500.
  it.each([
    '1',
    '5/6',
    '2026-02-30 10:00:00+00',
    '2025-02-29 10:00:00+00',
    '0000-01-01 00:00:00+00',
    '2026-11-23 24:00:01+00',
    '2026-11-23 10:00:00+16',
    '2026-11-23T10:00:00Z',
  ])('refuse the timestamp %s, which PostgreSQL does not print', (key) =>
    expect(() => decodeCursor(cursorOf(`${key}|${id}`))).toThrow('The page cursor is invalid.'),
  );

  it('take a date or a whole number where the list sorts by one, and nothing else that would reach SQL as one', () => {
    expect(decodeCursor(cursorOf(`2026-11-23|${id}`), 'date')).toEqual({ key: '2026-11-23', id });
    expect(decodeCursor(cursorOf(`-12|${id}`), 'integer')).toEqual({ key: '-12', id });
    for (const key of ['1-2-3-', '2026-02-30', '0000-01-01', '-12', '2026-11-23 23:35:58+00'])
      expect(() => decodeCursor(cursorOf(`${key}|${id}`), 'date')).toThrow('The page cursor is invalid.');
    for (const key of ['1-2', '2026-11-23', '99999999999', '--1'])
      expect(() => decodeCursor(cursorOf(`${key}|${id}`), 'integer')).toThrow('The page cursor is invalid.');
  });
});

describe('a page of rows read with limit + 1', () => {
  const rows = [1, 2, 3].map((n) => ({ id: `${id.slice(0, -1)}${n}`, cursor_at: `2026-11-2${n} 10:00:00+00` }));

  it('keeps the first `limit` rows and points after the last of them when more exist', () => {
    const page = pageOf(rows, 2, positionOfRow);
    expect(page.items).toEqual(rows.slice(0, 2));
    expect(decodeCursor(page.nextCursor ?? undefined)).toEqual({ key: rows[1].cursor_at, id: rows[1].id });
  });

  it('has no next cursor on the last page', () => {
    expect(pageOf(rows, 3, positionOfRow)).toEqual({ items: rows, nextCursor: null });
  });

  it('reads one row more than the page shows, and refuses a size that is not a whole number of rows', () => {
    expect(rowsToRead(25)).toBe(26);
    for (const size of [0, -1, 2.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60]) expect(() => rowsToRead(size)).toThrow('Not a page size');
  });
});
