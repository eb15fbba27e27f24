import { dayScheduleSchema, type DaySchedule, onboardingAnswersSchema } from '@spark/contracts';
import { evaluationProfiles } from '../evaluation/profiles';
import { formatClock } from './clock';
import { readDay } from './read-day';

const hhmm = (minute: number) => formatClock(minute, '24h');
const day = (typicalDay: string, extra: { biggestChallenge?: string; occupation?: string; timeZone?: string } = {}) =>
  readDay({ typicalDay, biggestChallenge: extra.biggestChallenge ?? 'Staying consistent', occupation: extra.occupation, timeZone: extra.timeZone });
const eventAt = (schedule: DaySchedule, kind: string) => schedule.events.filter((event) => event.kind === kind).map((event) => hhmm(event.minute));

describe('reading the typical day of each evaluation profile', () => {
  it.each(evaluationProfiles.map((profile) => [profile.id, profile] as const))('reads %s as a coach would', (_id, profile) => {
    const schedule = dayScheduleSchema.parse(readDay(onboardingAnswersSchema.parse(profile.answers)));
    const { expected } = profile;
    expect(schedule.hoursKnown).toBe(expected.hoursKnown);
    if (expected.wake) expect(hhmm(schedule.wake.minute)).toBe(expected.wake);
    if (expected.sleep) expect(hhmm(schedule.sleep.minute)).toBe(expected.sleep);
    if (expected.work) expect(schedule.work && [hhmm(schedule.work.start), hhmm(schedule.work.end)]).toEqual(expected.work);
    if (expected.workPattern) expect(schedule.workPattern).toBe(expected.workPattern);
    if (expected.challenge) expect(schedule.challenge && hhmm(schedule.challenge.minute)).toBe(expected.challenge);
    expect(schedule.daysOff !== null).toBe(expected.daysOff ?? false);
  });
});

describe('reading times of day', () => {
  it('reads a night shift across midnight and daytime sleep', () => {
    const schedule = day('I sleep from 9 AM to 3 PM, work 7 PM to 7 AM three nights a week.');
    expect([hhmm(schedule.sleep.minute), hhmm(schedule.wake.minute)]).toEqual(['09:00', '15:00']);
    expect(schedule.work).toMatchObject({ start: 19 * 60, end: 7 * 60, source: 'stated' });
    expect(schedule.workPattern).toBe('night-shift');
    expect(schedule.daysOff?.phrase).toBe('three nights a week');
  });

  it('takes "up at 5:30 for a run" as waking and a run at 5:30', () => {
    const schedule = day('Up at 5:30 for a run, then work.');
    expect(schedule.wake).toEqual({ minute: 5 * 60 + 30, source: 'stated' });
    expect(eventAt(schedule, 'exercise')).toEqual(['05:30']);
  });

  it('chooses AM or PM from what the time is for and the order of the day', () => {
    const schedule = day('Wake at 6, gym at 7, work 8 to 5, dinner at 7, bed at 11.');
    expect(hhmm(schedule.wake.minute)).toBe('06:00');
    expect(eventAt(schedule, 'exercise')).toEqual(['07:00']);
    expect(schedule.work).toMatchObject({ start: 8 * 60, end: 17 * 60 });
    expect(eventAt(schedule, 'meal')).toEqual(['19:00']);
    expect(hhmm(schedule.sleep.minute)).toBe('23:00');
  });

  it('reads "until 6", "by 10", "at 9" and "10-12" that chrono leaves alone', () => {
    const schedule = day('Up by 7, class 10-12, gym at 9 in the evening, library until 6, lights out by 10:30.');
    expect(hhmm(schedule.wake.minute)).toBe('07:00');
    expect(schedule.work).toMatchObject({ start: 10 * 60, end: 18 * 60 });
    expect(eventAt(schedule, 'exercise')).toEqual(['21:00']);
    expect(hhmm(schedule.sleep.minute)).toBe('22:30');
  });

  it('reads 24-hour times and keeps writing them that way', () => {
    const schedule = day('Alarm at 05:45, shift from 07:00 to 19:00, in bed at 22:30.');
    expect(schedule.clock).toBe('24h');
    expect(schedule.work).toMatchObject({ start: 7 * 60, end: 19 * 60 });
    expect(hhmm(schedule.sleep.minute)).toBe('22:30');
  });

  it('reads hours written as words after a preposition', () => {
    expect(hhmm(day('I get up at six and start work at eight.').wake.minute)).toBe('06:00');
  });

  it('does not take counts for times', () => {
    const schedule = day('Two kids, 3 nights a week at the gym for 45 minutes, 10 minutes of reading.');
    expect(schedule.hoursKnown).toBe(false);
    expect(schedule.events.filter((event) => event.source === 'stated')).toEqual([]);
  });

  it('does not take a pick-up or someone else’s bedtime for the client’s own', () => {
    const schedule = day('Up at 6:30, school pick-up at 3, kids in bed by 8, I read until 10:30.');
    expect(hhmm(schedule.wake.minute)).toBe('06:30');
    expect(eventAt(schedule, 'family')).toEqual(['15:00', '20:00']);
    expect(schedule.sleep).toEqual({ minute: 22 * 60 + 45, source: 'implied' });
  });

  it('places "after work" and "at night" once the working hours are known', () => {
    const schedule = day('Office 9 to 5:30, after work I play with the kids, at night I scroll on my phone.');
    expect(eventAt(schedule, 'family')).toEqual(['18:00']);
    expect(eventAt(schedule, 'screens')).toHaveLength(1);
    expect(schedule.events.every((event) => event.source === 'stated' || event.kind !== 'work')).toBe(true);
  });

  it('keeps what happens on weekends out of the working day', () => {
    const schedule = day('Up at 6:15 on weekdays, work 8 to 4. On weekends, I sleep in until 9.');
    expect(hhmm(schedule.wake.minute)).toBe('06:15');
    expect(schedule.daysOff).toEqual({ phrase: 'On weekends', wake: 9 * 60 });
  });

  it('tells working weekends from weekends off', () => {
    const schedule = day('I work Saturdays and Sundays, 10 AM to 6 PM. Weekdays are quiet.');
    expect(schedule.workPattern).toBe('weekend-work');
    expect(schedule.daysOff).toBeNull();
  });

  it('recognises rotating shifts and a life on the road', () => {
    expect(day('Rotating shifts, some weeks 6 AM to 2 PM, others 2 PM to 10 PM.').workPattern).toBe('rotating-shifts');
    expect(day('Flights every Monday, hotel most nights, meetings 9 to 6.').workPattern).toBe('travel');
    expect(day('Retired, I potter in the garden at 10.', { occupation: 'Retired' }).workPattern).toBe('none');
  });

  it('reads Spanish, French and German days', () => {
    const spanish = day('Me levanto a las 7, trabajo de 9 a 17 y me acuesto a las 23.');
    expect([hhmm(spanish.wake.minute), spanish.work && hhmm(spanish.work.end), hhmm(spanish.sleep.minute)]).toEqual(['07:00', '17:00', '23:00']);
    const french = day('Je me lève à 6h30, je travaille de 9h à 17h, au lit à 23h.');
    expect([hhmm(french.wake.minute), french.work && hhmm(french.work.start), hhmm(french.sleep.minute)]).toEqual(['06:30', '09:00', '23:00']);
    const german = day('Ich stehe um 6 Uhr auf, arbeite von 8 bis 17 Uhr und gehe um 22 Uhr ins Bett.');
    expect([hhmm(german.wake.minute), german.work && hhmm(german.work.end), hhmm(german.sleep.minute)]).toEqual(['06:00', '17:00', '22:00']);
  });

  it('says when it could not read any hours, and assumes a plain day', () => {
    const schedule = day('Busy, lots of meetings and the kids.');
    expect(schedule).toMatchObject({ hoursKnown: false, wake: { source: 'assumed' }, sleep: { source: 'assumed' }, challenge: null });
  });
});

describe('reading when the challenge shows up', () => {
  it.each([
    ['Vending-machine snacks at 3 AM on shift', 'I sleep from 9 AM to 3 PM, work 7 PM to 7 AM.', '03:00'],
    ['Snacking at 3', 'Up at 7, work 9 to 5.', '15:00'],
    ['Too tired after work', 'Up at 7, work 9 to 5.', '17:30'],
    ['Late-night scrolling', 'Up at 7, work 9 to 5, bed at 11.', '21:30'],
    ['Scrolling in bed', 'Up at 7, bed at 11.', '22:30'],
    ['Skipping workouts in the mornings', 'Up at 6:30, work 8 to 4.', '07:30'],
    ['The afternoon slump', 'Up at 7, work 9 to 5.', '15:00'],
    ['Gaming too long', 'Up at 9:30, lectures 10-12, gaming at night, asleep around 2am.', '00:30'],
  ])('places “%s” in the day', (challenge, typicalDay, expected) => {
    const schedule = day(typicalDay, { biggestChallenge: challenge });
    expect(schedule.challenge && hhmm(schedule.challenge.minute)).toBe(expected);
  });

  it('leaves the time open when nothing in the answers places the challenge', () => {
    expect(day('Up at 7, work 9 to 5.', { biggestChallenge: 'Motivation' }).challenge).toBeNull();
  });
});

describe('reading a hostile answer', () => {
  // chrono-node's duration patterns split a run of blanks between two `\s{0,5}` in each of ten repeats: a few dozen
  // characters of durations and blanks that end in no "ago" backtrack for minutes, blocking the worker's event loop.
  // Every such answer took seconds to minutes before blanks were collapsed, so the bound below is far from both sides.
  const timed = (answers: { typicalDay: string; biggestChallenge?: string }) => {
    const started = performance.now();
    day(answers.typicalDay, { biggestChallenge: answers.biggestChallenge });
    return performance.now() - started;
  };

  it('reads durations between runs of blanks, in the day and in the challenge, in well under the time chrono backtracks for', () => {
    timed({ typicalDay: 'I wake at 7' });
    const hostile = `x ${'2m     '.repeat(12)}!`;
    const longest = `${'2 min \t\u00a0 \t '.repeat(150)}`.slice(0, 2000);
    expect({
      day: timed({ typicalDay: hostile }) < 3000,
      challenge: timed({ typicalDay: 'Up at 6, work 9 to 5.', biggestChallenge: hostile }) < 3000,
      challengeOfLineBreaks: timed({ typicalDay: 'Up at 6, work 9 to 5.', biggestChallenge: `x ${'2m\n\n\n\n\n'.repeat(12)}!` }) < 3000,
      longest: timed({ typicalDay: longest }) < 3000,
    }).toEqual({ day: true, challenge: true, challengeOfLineBreaks: true, longest: true });
  });

  it('reads an answer with runs of blanks as it reads one with single spaces', () => {
    const spaced = day('Up   at 6:30,\t\twork  9 to 5.\nGym\u00a0\u00a0at 7 pm.', { biggestChallenge: 'Snacking  after\n\n 9 pm' });
    const single = day('Up at 6:30, work 9 to 5.\nGym at 7 pm.', { biggestChallenge: 'Snacking after 9 pm' });
    expect(spaced).toEqual(single);
  });
});
