import { currentStreak, localDate, type StreakState, streakAfterSpark } from './evolution';
import { calendarDateLabel, pauseDaysLeft, pauseWindowOf, type RestCalendar, restKindOf, skippedBy, weekdayOf } from './rest-days';

/** The streak after sparks at these instants, each dated in the zone the client's device was in. */
function streakOf(sparks: [instant: string, timeZone: string][], calendar: RestCalendar = { restWeekday: null, pauseDays: [] }): StreakState {
  let state: StreakState = { streakCount: 0, lastSparkDate: null };
  for (const [instant, zone] of sparks) state = streakAfterSpark(state, localDate(new Date(instant), zone), skippedBy(calendar));
  return state;
}

const sundayRest: RestCalendar = { restWeekday: 0, pauseDays: [] };

describe('rest and pause days', () => {
  it('names weekdays from the calendar date alone', () => {
    expect(weekdayOf('2026-03-08')).toBe(0); // a Sunday, the day New York springs forward
    expect(weekdayOf('2026-11-07')).toBe(6);
    expect(restKindOf({ restWeekday: 0, pauseDays: ['2026-03-10'] }, '2026-03-08')).toBe('rest');
    expect(restKindOf({ restWeekday: 0, pauseDays: ['2026-03-10'] }, '2026-03-10')).toBe('pause');
    expect(restKindOf({ restWeekday: 0, pauseDays: ['2026-03-10'] }, '2026-03-09')).toBeNull();
  });

  it('steps over the weekly rest day: it neither breaks nor extends the streak', () => {
    // Fri 6, Sat 7, (Sun 8 rest), Mon 9 March 2026.
    const state = streakOf(
      [
        ['2026-03-06T18:00:00Z', 'UTC'],
        ['2026-03-07T18:00:00Z', 'UTC'],
        ['2026-03-09T18:00:00Z', 'UTC'],
      ],
      sundayRest,
    );
    expect(state).toEqual({ streakCount: 3, lastSparkDate: '2026-03-09' });
    expect(
      streakOf([
        ['2026-03-06T18:00:00Z', 'UTC'],
        ['2026-03-07T18:00:00Z', 'UTC'],
        ['2026-03-09T18:00:00Z', 'UTC'],
      ]).streakCount,
    ).toBe(1);
  });

  it('steps over a rest day followed by a pause day, but not a missed day after them', () => {
    const calendar: RestCalendar = { restWeekday: 0, pauseDays: ['2026-03-09'] };
    const kept = streakOf(
      [
        ['2026-03-07T12:00:00Z', 'UTC'],
        ['2026-03-10T12:00:00Z', 'UTC'],
      ],
      calendar,
    );
    expect(kept.streakCount).toBe(2);
    const broken = streakOf(
      [
        ['2026-03-07T12:00:00Z', 'UTC'],
        ['2026-03-11T12:00:00Z', 'UTC'],
      ],
      calendar,
    );
    expect(broken.streakCount).toBe(1);
  });

  it('applies a newly chosen rest day from the day it was chosen: a day already missed stays missed', () => {
    // Sunday rest until Tuesday 10 March 2026, when the client moved it to Monday: Monday 9 was a missed day.
    const moved: RestCalendar = { restWeekday: 1, restWeekdayFrom: '2026-03-10', earlierRestWeekday: 0, pauseDays: [] };
    expect(restKindOf(moved, '2026-03-08')).toBe('rest');
    expect(restKindOf(moved, '2026-03-09')).toBeNull();
    expect(restKindOf(moved, '2026-03-16')).toBe('rest');
    expect(restKindOf(moved, '2026-03-15')).toBeNull();
    expect(
      streakOf(
        [
          ['2026-03-07T12:00:00Z', 'UTC'],
          ['2026-03-10T12:00:00Z', 'UTC'],
        ],
        moved,
      ).streakCount,
    ).toBe(1);
    expect(
      streakOf(
        [
          ['2026-03-07T12:00:00Z', 'UTC'],
          ['2026-03-09T12:00:00Z', 'UTC'],
        ],
        moved,
      ).streakCount,
    ).toBe(2);
  });

  it('keeps the streak alive on the home screen through rest and pause days, and drops it after a missed day', () => {
    const state: StreakState = { streakCount: 5, lastSparkDate: '2026-03-07' };
    const skipped = skippedBy({ restWeekday: 0, pauseDays: ['2026-03-09'] });
    expect(currentStreak(state, '2026-03-08', skipped)).toBe(5);
    expect(currentStreak(state, '2026-03-10', skipped)).toBe(5);
    expect(currentStreak(state, '2026-03-11', skipped)).toBe(0);
    expect(currentStreak(state, '2026-03-09')).toBe(0);
  });

  it('counts late-evening sparks on their own local days across New York’s spring-forward and fall-back nights', () => {
    // 23:30 local on 7, 8 and 9 March 2026 (EST until 8 March 02:00, then EDT); the same around 1 November.
    const spring = streakOf([
      ['2026-03-08T04:30:00Z', 'America/New_York'],
      ['2026-03-09T03:30:00Z', 'America/New_York'],
      ['2026-03-10T03:30:00Z', 'America/New_York'],
    ]);
    expect(spring).toEqual({ streakCount: 3, lastSparkDate: '2026-03-09' });
    const fall = streakOf([
      ['2026-11-01T03:30:00Z', 'America/New_York'],
      ['2026-11-02T04:30:00Z', 'America/New_York'],
      ['2026-11-03T04:30:00Z', 'America/New_York'],
    ]);
    expect(fall).toEqual({ streakCount: 3, lastSparkDate: '2026-11-02' });
  });

  it('keeps a rest day on Berlin’s Sunday of the clock change, whose day is 23 hours long', () => {
    // Sat 28 March 2026 00:30 CET, Sun 29 March rest (clocks go forward), Mon 30 March 00:30 CEST.
    const state = streakOf(
      [
        ['2026-03-27T23:30:00Z', 'Europe/Berlin'],
        ['2026-03-29T22:30:00Z', 'Europe/Berlin'],
      ],
      sundayRest,
    );
    expect(state).toEqual({ streakCount: 2, lastSparkDate: '2026-03-30' });
    // Autumn: Sun 25 October 2026 has 25 hours; a spark at 23:30 that Saturday and at 00:30 that Monday keep the streak.
    const autumn = streakOf(
      [
        ['2026-10-24T21:30:00Z', 'Europe/Berlin'],
        ['2026-10-25T23:30:00Z', 'Europe/Berlin'],
      ],
      sundayRest,
    );
    expect(autumn).toEqual({ streakCount: 2, lastSparkDate: '2026-10-26' });
  });

  it('keeps each spark’s local date when the client flies east across midnight', () => {
    // New York 20:00 on 10 March (00:00 UTC 11 March), then Berlin: the next spark the same UTC evening is 11 March there.
    const state = streakOf([
      ['2026-03-11T00:00:00Z', 'America/New_York'],
      ['2026-03-11T20:00:00Z', 'Europe/Berlin'],
    ]);
    expect(state).toEqual({ streakCount: 2, lastSparkDate: '2026-03-11' });
    // Flying east can skip a local day the client never lived: landing in Tokyo on the 13th after a spark on the 11th.
    const tokyo = streakOf(
      [
        ['2026-03-11T12:00:00Z', 'Europe/Berlin'],
        ['2026-03-12T16:00:00Z', 'Asia/Tokyo'],
      ],
      { restWeekday: null, pauseDays: ['2026-03-12'] },
    );
    expect(tokyo).toEqual({ streakCount: 2, lastSparkDate: '2026-03-13' });
  });

  it('never shortens the streak when flying west dates a spark on the day already sparked', () => {
    // Berlin 00:30 on 12 March, then New York 20:00 on 11 March (one hour of real time later is still the 11th there).
    const state = streakOf([
      ['2026-03-10T23:30:00Z', 'Europe/Berlin'],
      ['2026-03-11T23:30:00Z', 'Europe/Berlin'],
      ['2026-03-12T00:30:00Z', 'America/New_York'],
    ]);
    expect(state).toEqual({ streakCount: 2, lastSparkDate: '2026-03-12' });
    // The next New York evening, the 12th, counts as that same day: the streak goes on, not back.
    const next = streakAfterSpark(state, localDate(new Date('2026-03-13T00:30:00Z'), 'America/New_York'));
    expect(next).toEqual({ streakCount: 2, lastSparkDate: '2026-03-12' });
    expect(streakAfterSpark(next, '2026-03-13').streakCount).toBe(3);
  });

  it('splits an evolution into 14-day windows, each with its own pause days', () => {
    expect(pauseWindowOf('2026-03-01', '2026-03-01')).toEqual({ start: '2026-03-01', end: '2026-03-14' });
    expect(pauseWindowOf('2026-03-01', '2026-03-14')).toEqual({ start: '2026-03-01', end: '2026-03-14' });
    expect(pauseWindowOf('2026-03-01', '2026-03-15')).toEqual({ start: '2026-03-15', end: '2026-03-28' });
    const taken = ['2026-03-03', '2026-03-10', '2026-03-16'];
    expect(pauseDaysLeft(2, '2026-03-01', taken, '2026-03-12')).toBe(0);
    expect(pauseDaysLeft(2, '2026-03-01', taken, '2026-03-20')).toBe(1);
    expect(pauseDaysLeft(3, '2026-03-01', taken, '2026-03-05')).toBe(1);
  });
});

describe('calendarDateLabel', () => {
  it('reads a calendar date the same in every zone', () => {
    expect(calendarDateLabel('2026-11-26')).toBe('Thursday, November 26');
    expect(calendarDateLabel('2026-11-26', 'short')).toBe('Thu, Nov 26');
  });
});
