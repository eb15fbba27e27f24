import {
  addDays,
  currentStreak,
  cycleLengthDays,
  daysLeft,
  evolutionView,
  greetingFor,
  localDate,
  milestoneMessage,
  percentComplete,
  sparkTakenAt,
  streakAfterSpark,
} from './evolution';

describe('evolution arithmetic', () => {
  it('uses custom_evolution_days as the cycle length, and 90 when empty', () => {
    expect(cycleLengthDays(null)).toBe(90);
    expect(cycleLengthDays(21)).toBe(21);
  });

  it('counts days left as whole calendar days in the client’s zone, never below 0', () => {
    const now = new Date('2025-03-01T10:00:00Z');
    expect(daysLeft('2025-03-31', now, 'UTC')).toBe(30);
    expect(daysLeft('2025-03-01', now, 'UTC')).toBe(0);
    expect(daysLeft('2025-01-01', now, 'UTC')).toBe(0);
  });

  it('reads "today" in the client’s zone: 23:30 in Los Angeles is already tomorrow in UTC', () => {
    const now = new Date('2025-06-11T06:30:00Z');
    expect(daysLeft('2025-06-20', now, 'America/Los_Angeles')).toBe(10);
    expect(daysLeft('2025-06-20', now, 'Asia/Tokyo')).toBe(9);
  });

  it('is not shifted by a DST change inside the cycle', () => {
    expect(daysLeft('2025-04-05', new Date('2025-03-25T12:00:00+01:00'), 'Europe/Berlin')).toBe(11);
    expect(daysLeft('2025-11-05', new Date('2025-11-01T23:30:00-04:00'), 'America/New_York')).toBe(4);
  });

  it('computes percent complete from the cycle’s own length', () => {
    expect(percentComplete(90, null)).toBe(0);
    expect(percentComplete(45, null)).toBe(50);
    expect(percentComplete(0, null)).toBe(100);
    expect(percentComplete(7, 21)).toBe(67);
    expect(percentComplete(200, 21)).toBe(0);
  });

  it('shows the stored evolution number (the same on the client home and the dashboard)', () => {
    const view = evolutionView({ evolutionNumber: 2, evolutionEndDate: '2025-01-22', customEvolutionDays: 21 }, new Date('2025-01-01T12:00:00Z'), 'UTC');
    expect(view).toEqual({ number: 2, lengthDays: 21, daysLeft: 21, percentComplete: 0 });
  });

  it('moves dates across month and year ends', () => {
    expect(addDays('2025-01-31', 1)).toBe('2025-02-01');
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2025-12-31', 90)).toBe('2026-03-31');
    expect(localDate(new Date('2025-01-31T23:30:00Z'), 'Europe/Paris')).toBe('2025-02-01');
  });
});

describe('streaks', () => {
  it('starts at 1, counts several sparks on one day once, and grows on consecutive days', () => {
    let state = streakAfterSpark({ streakCount: 0, lastSparkDate: null }, '2025-01-30');
    expect(state).toEqual({ streakCount: 1, lastSparkDate: '2025-01-30' });
    state = streakAfterSpark(state, '2025-01-30');
    expect(state.streakCount).toBe(1);
    state = streakAfterSpark(state, '2025-01-31');
    state = streakAfterSpark(state, '2025-02-01');
    expect(state).toEqual({ streakCount: 3, lastSparkDate: '2025-02-01' });
  });

  it('restarts at 1 after a missed day', () => {
    expect(streakAfterSpark({ streakCount: 5, lastSparkDate: '2025-02-27' }, '2025-03-01').streakCount).toBe(1);
    expect(streakAfterSpark({ streakCount: 5, lastSparkDate: '2024-02-28' }, '2024-03-01').streakCount).toBe(1);
    expect(streakAfterSpark({ streakCount: 5, lastSparkDate: '2024-02-29' }, '2024-03-01').streakCount).toBe(6);
  });

  it('never shortens the streak when a time-zone change dates a spark before the last one', () => {
    expect(streakAfterSpark({ streakCount: 4, lastSparkDate: '2025-05-10' }, '2025-05-09')).toEqual({ streakCount: 4, lastSparkDate: '2025-05-10' });
  });

  it('mends the streak when a day sent late by another device fills the gap a later spark had left', () => {
    // Sparked the 6th to the 8th; another device recorded the 10th first, so the streak started again at 1.
    const sparked = ['2025-05-06', '2025-05-07', '2025-05-08', '2025-05-10'];
    const afterGap = { streakCount: 1, lastSparkDate: '2025-05-10' };
    expect(streakAfterSpark(afterGap, '2025-05-09', undefined, sparked)).toEqual({ streakCount: 5, lastSparkDate: '2025-05-10' });
    // A day further back leaves the gap before the 10th open, and a day already sparked changes nothing.
    expect(streakAfterSpark(afterGap, '2025-05-05', undefined, sparked)).toEqual(afterGap);
    const mended = { streakCount: 5, lastSparkDate: '2025-05-10' };
    expect(streakAfterSpark(mended, '2025-05-07', undefined, [...sparked, '2025-05-09'])).toEqual(mended);
  });

  it('steps over rest and pause days when it counts a late day, as if the days had come in order', () => {
    const skipped = (day: string) => day === '2025-05-08';
    expect(
      streakAfterSpark({ streakCount: 1, lastSparkDate: '2025-05-09' }, '2025-05-07', skipped, ['2025-05-05', '2025-05-06', '2025-05-09']).streakCount,
    ).toBe(4);
    // A late spark on a rest day inside the run counts, as a spark on a rest day does.
    const sparked = ['2025-05-05', '2025-05-06', '2025-05-07', '2025-05-09'];
    expect(streakAfterSpark({ streakCount: 4, lastSparkDate: '2025-05-09' }, '2025-05-08', skipped, sparked).streakCount).toBe(5);
  });

  it('adds only what a late day joins to the stored streak, which today’s rest days may read differently', () => {
    // The stored 3 counted the 3rd as missed; today's rest days read it as rest (the calendar keeps two choices).
    const readAsRest = (day: string) => day === '2025-05-03';
    const sparked = ['2025-05-01', '2025-05-02', '2025-05-04', '2025-05-05', '2025-05-06'];
    expect(streakAfterSpark({ streakCount: 3, lastSparkDate: '2025-05-06' }, '2025-05-05', readAsRest, sparked).streakCount).toBe(3);
    expect(streakAfterSpark({ streakCount: 9, lastSparkDate: '2025-05-09' }, '2025-05-08', undefined, ['2025-05-09']).streakCount).toBe(10);
  });

  it('dates consecutive evening sparks by the client’s zone across the spring DST change', () => {
    const zone = 'America/New_York';
    const saturday = localDate(new Date('2025-03-08T23:30:00-05:00'), zone);
    const sunday = localDate(new Date('2025-03-09T23:30:00-04:00'), zone);
    expect([saturday, sunday]).toEqual(['2025-03-08', '2025-03-09']);
    expect(streakAfterSpark({ streakCount: 1, lastSparkDate: saturday }, sunday).streakCount).toBe(2);
  });

  it('shows a streak as alive through yesterday and as 0 after a gap', () => {
    const state = { streakCount: 3, lastSparkDate: '2025-03-31' };
    expect(currentStreak(state, '2025-04-01')).toBe(3);
    expect(currentStreak(state, '2025-04-02')).toBe(0);
    expect(currentStreak({ streakCount: 0, lastSparkDate: null }, '2025-04-02')).toBe(0);
  });

  it('dates a spark back by as long as its device held it, by the clock of the device, within a week', () => {
    const recordedAt = new Date('2025-04-02T00:10:00Z');
    const held = (takenAt: string, sentAt: string) => sparkTakenAt({ takenAt, sentAt }, recordedAt).toISOString();
    expect(held('2025-04-01T23:55:00Z', '2025-04-02T00:10:00Z')).toBe('2025-04-01T23:55:00.000Z');
    // A device a day behind, or ten minutes: its clock is off by the same amount at both times.
    expect(held('2025-03-31T23:55:00Z', '2025-04-01T00:10:00Z')).toBe('2025-04-01T23:55:00.000Z');
    expect(held('2025-04-02T00:00:00Z', '2025-04-02T00:00:00Z')).toBe('2025-04-02T00:10:00.000Z');
    expect(held('2025-03-26T00:10:00Z', '2025-04-02T00:10:00Z')).toBe('2025-03-26T00:10:00.000Z');
    for (const [takenAt, sentAt] of [
      ['2025-03-26T00:09:59Z', '2025-04-02T00:10:00Z'],
      ['2025-04-02T00:10:01Z', '2025-04-02T00:10:00Z'],
    ]) {
      expect(sparkTakenAt({ takenAt, sentAt }, recordedAt)).toBe(recordedAt);
    }
    expect(sparkTakenAt({ takenAt: '2025-04-01T23:55:00Z' }, recordedAt)).toBe(recordedAt);
  });
});

describe('milestones and greeting', () => {
  it.each([1, 5, 10, 25, 50, 100])('celebrates spark %i as a milestone', (count) => {
    expect(milestoneMessage(count).title).toBe('Milestone reached!');
  });

  it('counts other sparks as "spark #N this cycle"', () => {
    expect(milestoneMessage(7).description).toBe("That's spark #7 this cycle.");
  });

  it.each([
    [0, 'Good morning'],
    [11, 'Good morning'],
    [12, 'Good afternoon'],
    [16, 'Good afternoon'],
    [17, 'Good evening'],
    [23, 'Good evening'],
  ])('greets at %i:00 with "%s"', (hour, greeting) => {
    expect(greetingFor(hour)).toBe(greeting);
  });
});
