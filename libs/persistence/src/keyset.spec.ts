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

  it('take sort values of digits and dashes where the list sorts by them', () => {
    expect(decodeCursor(cursorOf(`-12|${id}`), 'digits')).toEqual({ key: '-12', id });
    expect(() => decodeCursor(cursorOf(`2026-11-23 23:35:58+00|${id}`), 'digits')).toThrow('The page cursor is invalid.');
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
