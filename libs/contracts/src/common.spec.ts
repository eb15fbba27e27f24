import { isoDateSchema, isoDateTimeSchema } from './common';

describe('dates and times a request may carry', () => {
  it.each(['2024-02-29', '0001-01-01', '9999-12-31'])('take the date %s', (date) => expect(isoDateSchema.safeParse(date).success).toBe(true));

  it.each(['0000-01-01', '2025-02-29', '2026-11-16 '])('refuse the date %s, which PostgreSQL does not store', (date) =>
    expect(isoDateSchema.safeParse(date).success).toBe(false),
  );

  it.each([
    '2026-11-23T10:00:00Z',
    '2026-11-16T10:00:00.123456+05:30',
    '2026-11-23T10:00:00-12:00',
    '2026-11-23T10:00:00+15:59',
    '0001-01-01T00:00:00Z',
    '9999-12-31T23:59:59.999Z',
  ])('take the time %s', (time) => expect(isoDateTimeSchema.safeParse(time).success).toBe(true));

  it.each(['0000-01-01T00:00:00Z', '2026-11-23T10:00:00+23:59', '2026-11-23T10:00:00-16:00'])('refuse the time %s, which PostgreSQL does not store', (time) =>
    expect(isoDateTimeSchema.safeParse(time).success).toBe(false),
  );

  it.each(['9999-12-31T23:00:00-05:00', '0001-01-01T00:00:00+01:00', '0000-12-31T23:00:00-05:00'])(
    'refuse the time %s, past a four-digit year in UTC or written in year 0',
    (time) => expect(isoDateTimeSchema.safeParse(time).success).toBe(false),
  );
});
