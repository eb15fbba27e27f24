import type { CoachingFacts } from '@spark/contracts';
import { type CoachingRecord, coachingFactsOf, longestRunOf, missedDaysOf, weekOf } from './coaching-facts';
import { checkDraft, NUDGE_MAX_CHARS, numbersIn } from './draft-checks';
import { writeOfflineCheckIn, writeOfflineNudge } from './offline-writer';

const today = '2026-11-20'; // a Friday
const record: CoachingRecord = {
  fullName: 'Maya Lindqvist',
  goal: null,
  streakCount: 6,
  evolutionNumber: 1,
  evolutionStartDate: '2026-11-01',
  evolutionEndDate: '2026-11-22',
  lastSparkDate: '2026-11-18',
  today,
  idleDays: 2,
};
const answers = {
  fullName: 'Maya Lindqvist',
  goal: 'I want to run a half marathon by June and feel strong',
  challenge: 'Snacking late at night after my kids are asleep',
};
const sparks = new Map([
  ['2026-11-14', 1],
  ['2026-11-15', 2],
  ['2026-11-16', 1],
  ['2026-11-17', 1],
  ['2026-11-18', 1],
]);

function factsFor(changes: Partial<CoachingRecord>, perDay = sparks, pauseDays: string[] = []): CoachingFacts {
  const at = { ...record, ...changes };
  return coachingFactsOf(at, answers, weekOf(at.today, perDay, pauseDays), pauseDays);
}

describe('coaching facts', () => {
  it('reads a streak that ended yesterday with its length and days', () => {
    const facts = factsFor({});
    expect(facts).toMatchObject({
      firstName: 'Maya',
      situation: 'streak-broke',
      daysSinceLastSpark: 2,
      currentStreak: 0,
      sparksThisWeek: 6,
      evolutionDay: 20,
      evolutionDays: 21,
    });
    expect(facts.endedStreak).toEqual({ days: 6, from: '2026-11-13', to: '2026-11-18' });
    expect(facts.goal).toBe(answers.goal);
  });

  it('tells the four situations apart', () => {
    expect(factsFor({ lastSparkDate: null, streakCount: 0, idleDays: 19 }).situation).toBe('never-sparked');
    expect(factsFor({ lastSparkDate: '2026-11-14', idleDays: 6 }).situation).toBe('long-silence');
    expect(factsFor({ lastSparkDate: '2026-11-19', idleDays: 1 }).situation).toBe('doing-well');
  });

  it("prefers the coach's edited goal to the onboarding answer", () => {
    expect(factsFor({ goal: 'Sleep by 11' }).goal).toBe('Sleep by 11');
  });

  it('finds the week’s longest run and the days that slipped, leaving out pause days and today', () => {
    const week = weekOf(today, sparks, ['2026-11-19']);
    expect(longestRunOf(week)).toEqual({ days: 5, from: '2026-11-14', to: '2026-11-18' });
    expect(missedDaysOf(week, record.evolutionStartDate, today)).toEqual([]);
    expect(missedDaysOf(weekOf(today, sparks, []), record.evolutionStartDate, today)).toEqual(['2026-11-19']);
  });
});

describe('offline nudge', () => {
  it('names the streak that ended, the day of the last spark, the goal and the challenge in short phrases', () => {
    const message = writeOfflineNudge(factsFor({}));
    expect(message).toBe(
      'Hi Maya, your 6-day streak paused yesterday after your spark on Wednesday. You still have 6 sparks this week, and they count. ' +
        'One spark today toward your goal (“run a half marathon by June”) starts the next run. ' +
        "Reply and tell me what got in the way; if it was your biggest challenge again (snacking late at night after your kids are asleep), we'll plan around it together.",
    );
  });

  it('says how long the silence is and reminds of the run before it', () => {
    const message = writeOfflineNudge(factsFor({ lastSparkDate: '2026-11-14', idleDays: 6 }, new Map([['2026-11-14', 1]])));
    expect(message).toContain("it's been 6 days since your last spark");
    expect(message).toContain('Before that you had a 6-day run going');
  });

  it('welcomes a client who never sparked with the day of their evolution', () => {
    const message = writeOfflineNudge(factsFor({ lastSparkDate: null, streakCount: 0, idleDays: 19 }, new Map()));
    expect(message).toContain("it's day 20 of Evolution 1 and I haven't seen your first spark yet");
  });

  it('encourages a client who is doing well with the streak and the week', () => {
    const message = writeOfflineNudge(factsFor({ lastSparkDate: '2026-11-19', streakCount: 7, idleDays: 1 }, new Map([...sparks, ['2026-11-19', 1]])));
    expect(message).toContain('7 sparks this week and a 7-day streak');
  });

  it('names a pause day taken during the silence, once pause days exist', () => {
    const message = writeOfflineNudge(factsFor({}, sparks, ['2026-11-19']));
    expect(message).toContain('Taking Thursday as a pause day was the right call.');
  });

  it('writes the same words for the same facts, and every situation passes the draft checks', () => {
    const situations = [
      factsFor({}),
      factsFor({ lastSparkDate: '2026-11-14', idleDays: 6 }),
      factsFor({ lastSparkDate: null, streakCount: 0, idleDays: 19 }, new Map()),
      factsFor({ lastSparkDate: '2026-11-19', idleDays: 1 }),
    ];
    for (const facts of situations) {
      expect(writeOfflineNudge(facts)).toBe(writeOfflineNudge(structuredClone(facts)));
      expect(checkDraft(writeOfflineNudge(facts), facts, { maxChars: NUDGE_MAX_CHARS })).toEqual([]);
    }
  });
});

describe('offline check-in', () => {
  it('says how long a live streak is', () => {
    const facts = factsFor({ lastSparkDate: '2026-11-19', streakCount: 7, idleDays: 1 });
    const summary = writeOfflineCheckIn(facts, {
      sparkDays: 6,
      missedDays: [],
      longestRun: { days: 6, from: '2026-11-14', to: '2026-11-19' },
      clientNotes: [],
    });
    expect(summary).toContain(
      "here's your week: 6 sparks on 6 days, and your streak is at 7 days. What went well: your 6-day run from Saturday to Thursday. What slipped: nothing.",
    );
  });

  it('sums up the week: sparks, streak, what went well and what slipped', () => {
    const facts = factsFor({});
    const week = weekOf(today, sparks, []);
    const checkIn = {
      sparkDays: 5,
      missedDays: missedDaysOf(week, record.evolutionStartDate, today),
      longestRun: longestRunOf(week),
      clientNotes: ['Ran 5 km before work, legs are sore'],
    };
    const summary = writeOfflineCheckIn(facts, checkIn);
    expect(summary).toBe(
      "Hi Maya, here's your week: 6 sparks on 5 days. Your next spark starts a new streak. What went well: your 5-day run from Saturday to Wednesday and you wrote “Ran 5 km before work”. " +
        'What slipped: no spark on Thursday. For next week: when your biggest challenge shows up (snacking late at night after your kids are asleep), take one small spark anyway.',
    );
    expect(checkDraft(summary, facts, { maxChars: 900, week: checkIn })).toEqual([]);
  });
});

describe('draft checks', () => {
  const facts = factsFor({});

  it('reads numbers in digits and words', () => {
    expect(numbersIn('3 days, twelve sparks and 2.5 km')).toEqual([3, 2.5, 12]);
  });

  it('refuses an invented number, a draft that names no fact, one not in second person and a long quote', () => {
    const rules = (text: string) => checkDraft(text, facts, { maxChars: NUDGE_MAX_CHARS }).map((violation) => violation.rule);
    expect(rules('Hi Maya, your 9-day streak ended after 6 sparks this week. You can do it.')).toEqual(['invented-number']);
    expect(rules('Hi Maya, hope you are well!')).toEqual(['names-a-fact']);
    expect(rules('Maya had 6 sparks this week.')).toEqual(['second-person']);
    expect(rules('Hi Maya, 6 sparks: “I really want to get up early and go to the gym before work every single day” you said.')).toEqual(['short-quotes']);
    expect(rules(`Hi Maya, you had 6 sparks. ${'x'.repeat(NUDGE_MAX_CHARS)}`)).toEqual(['length']);
    expect(rules('Hello, you had 6 sparks this week.')).toEqual(['first-name']);
  });

  it('accepts a number the client wrote in their own goal, and the goal in other words as a fact', () => {
    const withKm = { ...facts, goal: 'Run 21 km by June' };
    expect(checkDraft('Hi Maya, those 21 km by June are closer than you think. Keep running.', withKm, { maxChars: NUDGE_MAX_CHARS })).toEqual([]);
  });
});
