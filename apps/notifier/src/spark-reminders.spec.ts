import { ensureToday, pushHoldSeconds } from './spark-reminders';

describe("a spark reminder held to its client's day", () => {
  const now = new Date('2026-12-02T22:30:00Z');

  it('is refused once the day it names has ended for its client, and sent before', () => {
    expect(() => ensureToday({ localDate: '2026-12-02', dayEndsAt: '2026-12-02T22:30:00.000Z' }, now)).toThrow(
      "spark reminder not sent: the client's 2026-12-02 ended at 2026-12-02T22:30:00.000Z",
    );
    expect(() => ensureToday({ localDate: '2026-12-02', dayEndsAt: '2026-12-02T23:00:00.000Z' }, now)).not.toThrow();
  });

  it('is refused when its date is over everywhere, whatever end its producer gave it', () => {
    expect(() => ensureToday({ localDate: '2026-11-29', dayEndsAt: '2026-12-03T00:00:00.000Z' }, now)).toThrow('2026-11-29 is not today anywhere');
  });

  it('falls back to today somewhere when its job names no end (queued by the release before)', () => {
    expect(() => ensureToday({ localDate: '2026-12-02' }, now)).not.toThrow();
  });

  it('is held by a push service for an offline device no later than the end of its day', () => {
    expect(pushHoldSeconds('2026-12-02T23:00:00.000Z', now)).toBe(1800);
    expect(pushHoldSeconds('2026-12-03T12:00:00.000Z', now)).toBe(4 * 3600);
    expect(pushHoldSeconds(undefined, now)).toBe(4 * 3600);
  });
});
