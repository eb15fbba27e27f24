import type { DayEvent, DaySchedule, OnboardingAnswers, ScheduledTime, WorkPattern } from '@spark/contracts';
import { type ClockEvent, type DayAnchor, type PendingEvent, readClause, relativeCue, resolveTime } from './clause-events';
import { clockDistance, isAsleep, minutesAfter, onClock, sinceWaking } from './clock';
import { daysOffWords, detectLanguage, type DayLanguage, kindsIn, nightWords, partWeekWords, retiredWords, rotatingWords } from './day-vocabulary';
import { findTimeMentions } from './time-mentions';

export type DayAnswers = Pick<OnboardingAnswers, 'typicalDay' | 'biggestChallenge' | 'occupation' | 'timeZone'>;

const DEFAULT_WAKE = 7 * 60;
const DEFAULT_SLEEP = 23 * 60;

// Sentences, semicolons and commas (not inside "6.30" or "1,5"), and "then".
export const splitClauses = (text: string) =>
  text
    .split(/(?:\.(?!\d)|[!?;\n]|,(?!\d))\s*|\s+(?:and then|then|afterwards|después|luego|puis|ensuite|danach|dann)\s+/iu)
    .map((clause) => clause.trim())
    .filter(Boolean);

const offWords = /\b(?:off|free|rest|libres?|repos|freie?n?)\b/i;
const isDaysOffClause = (clause: string, language: DayLanguage) =>
  daysOffWords.test(clause) && (offWords.test(clause) || !kindsIn(clause, language).some((item) => item.kind === 'work'));
// "On weekends," alone: the clause after it tells what happens on those days.
const isBareDaysOff = (clause: string) =>
  clause
    .replace(daysOffWords, '')
    .replace(/\b(?:on|at|the|my|los|les|am|an)\b/gi, '')
    .trim()
    .split(/\s+/)
    .filter(Boolean).length < 2;

/** The words that describe the days off: "Two days off after each block", or up to "days off" when more follows. */
function daysOffPhrase(clause: string): string {
  const match = daysOffWords.exec(clause);
  const end = match ? match.index + match[0].length : clause.length;
  const rest = clause.slice(end);
  return (/[:(]/.test(rest) || rest.split(/\s+/).filter(Boolean).length > 4 ? clause.slice(0, end) : clause).trim().slice(0, 80);
}

interface Reading {
  language: DayLanguage;
  events: ClockEvent[];
  pending: PendingEvent[];
  daysOff: DaySchedule['daysOff'];
  weekendWork: boolean;
}

function readClauses(text: string, language: DayLanguage): Reading {
  const reading: Reading = { language, events: [], pending: [], daysOff: null, weekendWork: false };
  let cursor: number | null = null;
  let inherited: ClockEvent['kind'] | null = null;
  let carryDaysOff = false;
  const othersKind = kindsIn(text, language).some((item) => item.kind === 'care') ? 'care' : 'family';
  for (const clause of splitClauses(text)) {
    if (carryDaysOff || isDaysOffClause(clause, language)) {
      // Another day than the working one: its times say only when the client wakes on days off.
      const wake = readClause(clause, language, null, null).clock.find((event) => event.kind === 'wake');
      reading.daysOff = { phrase: reading.daysOff?.phrase ?? daysOffPhrase(clause), wake: reading.daysOff?.wake ?? wake?.minute };
      carryDaysOff = !carryDaysOff && isBareDaysOff(clause);
      continue;
    }
    if (daysOffWords.test(clause)) reading.weekendWork = true;
    const { clock, pending, kind } = readClause(clause, language, cursor, inherited, othersKind);
    reading.events.push(...clock);
    reading.pending.push(...pending);
    inherited = kind ?? inherited;
    const last = clock.filter((event) => event.source === 'stated').at(-1);
    if (last) cursor = last.endMinute ?? last.minute;
  }
  const partWeek = partWeekWords.exec(text);
  if (!reading.daysOff && partWeek) reading.daysOff = { phrase: partWeek[0] };
  return reading;
}

function workBlock(events: ClockEvent[]): DaySchedule['work'] {
  const work = events.filter((event) => (event.kind === 'work' || event.kind === 'study') && event.source === 'stated');
  const range = work.find((event) => event.endMinute !== undefined);
  if (range?.endMinute !== undefined) {
    const laterEnd = work.find(
      (event) => event.isEnd && minutesAfter(range.minute, event.minute) > minutesAfter(range.minute, range.endMinute ?? range.minute),
    );
    return { start: range.minute, end: laterEnd?.minute ?? range.endMinute, source: 'stated', phrase: range.phrase };
  }
  const start = work.find((event) => !event.isEnd);
  // "calls until lunch at 1 … log off at 6": the block ends at the last end told.
  const end = start
    ? work.filter((event) => event.isEnd).sort((a, b) => minutesAfter(start.minute, b.minute) - minutesAfter(start.minute, a.minute))[0]
    : work.find((event) => event.isEnd);
  if (start && end) return { start: start.minute, end: end.minute, source: 'stated', phrase: start.phrase };
  if (start) return { start: start.minute, end: onClock(start.minute + 8 * 60), source: 'implied', phrase: start.phrase };
  if (end) return { start: onClock(end.minute - 8 * 60), end: end.minute, source: 'implied', phrase: end.phrase };
  return null;
}

function workPatternOf(answers: DayAnswers, language: DayLanguage, work: DaySchedule['work'], weekendWork: boolean): WorkPattern {
  const text = `${answers.typicalDay} ${answers.occupation ?? ''}`;
  if (rotatingWords.test(text)) return 'rotating-shifts';
  const overnight = work !== null && (work.start >= 18 * 60 || work.start < 4 * 60 || (work.end < work.start && work.end <= 9 * 60));
  if (overnight || (work === null && nightWords.test(text) && /shift|work|nurse|turno|schicht|garde/i.test(text))) return 'night-shift';
  if (weekendWork) return 'weekend-work';
  if ((text.match(/\b(?:fly|flying|flights?|airports?|hotels?|travel\w*|trips?)\b/gi) ?? []).length >= 2) return 'travel';
  if (work || kindsIn(answers.typicalDay, language).some((item) => item.kind === 'work' || item.kind === 'study')) return 'day';
  return retiredWords.test(text) || !answers.occupation?.trim() ? 'none' : 'day';
}

/** When the client wakes and goes to bed: what they said, else what their hours imply, else a default. */
function sleepWindow(events: ClockEvent[], work: DaySchedule['work'], pattern: WorkPattern): { wake: ScheduledTime; sleep: ScheduledTime } {
  const sleepEvent = events.find((event) => event.kind === 'sleep' && event.source === 'stated');
  const wakeEvent = events.find((event) => event.kind === 'wake' && event.source === 'stated');
  let wake: ScheduledTime | null = wakeEvent ? { minute: wakeEvent.minute, source: 'stated' } : null;
  let sleep: ScheduledTime | null = sleepEvent ? { minute: sleepEvent.minute, source: 'stated' } : null;
  // "I sleep from 9 AM to 3 PM" gives both.
  if (!wake && sleepEvent?.endMinute !== undefined) wake = { minute: sleepEvent.endMinute, source: 'stated' };
  if (!wake && !sleep && pattern === 'night-shift' && work) sleep = { minute: onClock(work.end + 90), source: 'assumed' };
  if (!wake) {
    const first = events.find((event) => event.kind !== 'sleep');
    const minute = sleep ? sleep.minute + 8 * 60 : work ? work.start - 90 : first ? first.minute - 45 : DEFAULT_WAKE;
    wake = { minute: onClock(minute), source: 'assumed' };
  }
  if (!sleep) {
    const awake = wake;
    const latest = [...events].sort((a, b) => sinceWaking({ wake: awake }, b.endMinute ?? b.minute) - sinceWaking({ wake: awake }, a.endMinute ?? a.minute))[0];
    const latestMinute = latest ? (latest.endMinute ?? latest.minute) : null;
    // The day ends after its last told moment ("Netflix until midnight"), never shorter than 15 hours.
    if (latest && latestMinute !== null && (latest.isEnd || latest.endMinute !== undefined) && sinceWaking({ wake: awake }, latestMinute) >= 14 * 60) {
      sleep = { minute: onClock(latestMinute + 15), source: 'implied' };
    } else {
      const fromLatest = latestMinute === null ? 0 : sinceWaking({ wake: awake }, latestMinute) + 60;
      sleep = { minute: onClock(awake.minute + Math.min(19 * 60, Math.max(16.5 * 60, fromLatest))), source: 'assumed' };
      if (!latest && awake.source === 'assumed') sleep = { minute: DEFAULT_SLEEP, source: 'assumed' };
    }
  }
  return { wake, sleep };
}

const at = (minute: number, schedule: Pick<DaySchedule, 'wake' | 'sleep'>, fallback: number) => (isAsleep(schedule, minute) ? fallback : minute);

/** The clock time of a moment named without one, in this client's day. */
export function anchorMinute(
  anchor: DayAnchor,
  schedule: Pick<DaySchedule, 'wake' | 'sleep' | 'work' | 'workPattern'>,
  events: Pick<DayEvent, 'kind' | 'minute' | 'phrase'>[],
): number | null {
  const { wake, sleep, work } = schedule;
  const span = sinceWaking(schedule, sleep.minute);
  const inDay = (fraction: number) => onClock(wake.minute + span * fraction);
  switch (anchor) {
    case 'morning':
      return onClock(wake.minute + 60);
    case 'mid-morning':
      return at(10 * 60 + 30, schedule, inDay(0.25));
    case 'noon':
    case 'lunch':
      return (
        events.find((event) => event.kind === 'meal' && /lunch|almuerzo|comida|déjeuner|mittag/i.test(event.phrase))?.minute ??
        at(12 * 60 + 30, schedule, inDay(0.4))
      );
    case 'afternoon':
    case 'mid-afternoon':
      return at(15 * 60, schedule, inDay(0.5));
    case 'evening':
      return at(19 * 60, schedule, inDay(0.75));
    case 'night':
      if (schedule.workPattern === 'night-shift' && work) return onClock(work.start + minutesAfter(work.start, work.end) / 2);
      return minutesAfter(20 * 60, sleep.minute) <= 7 * 60 ? onClock(sleep.minute - 90) : at(22 * 60, schedule, inDay(0.9));
    case 'midnight':
      return at(0, schedule, inDay(0.95));
    case 'after-work':
      return work ? onClock(work.end + 30) : null;
    case 'before-work':
      return work ? onClock(work.start - 45) : null;
    case 'at-work':
      return work ? onClock(work.start + minutesAfter(work.start, work.end) / 2) : null;
    case 'after-dinner': {
      const dinner = events.find((event) => event.kind === 'meal' && /dinner|supper|cena|dîn|abendessen/i.test(event.phrase));
      return dinner ? onClock(dinner.minute + 45) : at(20 * 60, schedule, inDay(0.8));
    }
    case 'before-bed':
      return onClock(sleep.minute - 30);
  }
}

function placeEvents(reading: Reading, schedule: Omit<DaySchedule, 'events' | 'challenge' | 'clock' | 'hoursKnown' | 'daysOff'>): DayEvent[] {
  const events: DayEvent[] = [];
  const add = (event: DayEvent) => {
    if (isAsleep(schedule, event.minute)) return;
    if (events.some((other) => other.kind === event.kind && clockDistance(other.minute, event.minute) < 20)) return;
    events.push(event);
  };
  for (const event of reading.events) {
    if (event.kind === 'wake' || event.kind === 'sleep') continue;
    add({ kind: event.kind, minute: event.minute, endMinute: event.endMinute, source: event.source, phrase: event.phrase });
  }
  for (const pending of reading.pending) {
    const minute = anchorMinute(pending.anchor, schedule, events);
    if (minute !== null) add({ kind: pending.kind, minute, source: 'implied', phrase: pending.phrase });
  }
  return events.sort((a, b) => sinceWaking(schedule, a.minute) - sinceWaking(schedule, b.minute));
}

/** When the biggest challenge shows up: a time it names, a part of the day it implies, or a moment of the day it shares. */
function readChallenge(answers: DayAnswers, language: DayLanguage, schedule: Omit<DaySchedule, 'challenge' | 'clock'>): DaySchedule['challenge'] {
  const text = answers.biggestChallenge;
  const mentions = findTimeMentions(text, language);
  const clock = mentions.find((mention) => mention.type === 'clock');
  if (clock) {
    const kind = kindsIn(text, language)[0]?.kind ?? 'other';
    const resolved = resolveTime(clock.start, kind, text, false, { cursor: null, hint: null });
    // An hour without AM or PM is the one the client is awake for.
    const other = onClock(resolved + 720);
    const minute = !clock.start.meridiem && isAsleep(schedule, resolved) && !isAsleep(schedule, other) ? other : resolved;
    return { minute, source: 'stated', phrase: clock.text };
  }
  const part = mentions.find((mention) => mention.type === 'part');
  const cue = relativeCue(text, part?.type === 'part' ? part : undefined);
  const anchored = cue ? anchorMinute(cue.anchor, schedule, schedule.events) : null;
  if (cue && anchored !== null) return { minute: anchored, source: 'implied', phrase: cue.cue };
  // Meals come several times a day: sharing one says nothing about when the challenge shows up.
  const byStatedFirst = [...schedule.events].sort((a, b) => Number(a.source !== 'stated') - Number(b.source !== 'stated'));
  for (const { kind, word } of kindsIn(text, language).filter((item) => item.kind !== 'meal')) {
    const shared = byStatedFirst.find((event) => event.kind === kind);
    if (shared) return { minute: shared.minute, source: 'implied', phrase: word };
  }
  return null;
}

const twelveHourZones =
  /^(?:Europe\/(?:London|Dublin)|America\/(?!Sao_Paulo|Argentina|Santiago|Bogota|Lima|Caracas|Montevideo|Asuncion|La_Paz|Havana|Mexico_City)|US\/|Canada\/|Australia\/|Pacific\/Auckland|Asia\/(?:Kolkata|Calcutta|Manila|Karachi|Dhaka)|Africa\/Cairo)/;

function clockStyle(answers: DayAnswers): DaySchedule['clock'] {
  const text = `${answers.typicalDay} ${answers.biggestChallenge}`;
  if (/\d\s*(?:a\.?m\.?|p\.?m\.?)(?![\p{L}])/iu.test(text)) return '12h';
  if (/\b(?:1[3-9]|2[0-3])(?:[:.h][0-5]\d|\s*(?:uhr|h)\b)|\blas (?:1[3-9]|2[0-3])\b/i.test(text)) return '24h';
  if (!answers.timeZone) return '12h';
  return twelveHourZones.test(answers.timeZone) ? '12h' : '24h';
}

/**
 * The answers with every run of blanks as one space (line breaks kept in the day, where they end clauses). chrono-node's
 * duration patterns try each way of splitting a run of blanks between two of their `\s{0,5}`, ten times over: a client's
 * few dozen characters of durations and blanks would otherwise hold the worker's event loop for minutes.
 */
function withSingleBlanks(answers: DayAnswers): DayAnswers {
  return { ...answers, typicalDay: answers.typicalDay.replace(/[^\S\n]+/g, ' '), biggestChallenge: answers.biggestChallenge.replace(/\s+/g, ' ') };
}

/**
 * Reads the typical-day answer into a schedule: when the client wakes and sleeps, their work or
 * shift block, the moments they named with times, their days off, and when the biggest challenge
 * shows up. chrono-node reads the times; the words around each time say what it is.
 */
export function readDay(given: DayAnswers): DaySchedule {
  const answers = withSingleBlanks(given);
  const language = detectLanguage(`${answers.typicalDay} ${answers.biggestChallenge}`);
  const reading = readClauses(answers.typicalDay, language);
  const work = workBlock(reading.events);
  const workPattern = workPatternOf(answers, language, work, reading.weekendWork);
  const { wake, sleep } = sleepWindow(reading.events, work, workPattern);
  const base = { wake, sleep, work, workPattern };
  const events = placeEvents(reading, base);
  const hoursKnown = reading.events.some((event) => event.source === 'stated');
  const withEvents = { ...base, events, hoursKnown, daysOff: reading.daysOff };
  // With no hours to be near, the challenge keeps no time either: the plan meets it "when it shows up".
  return { ...withEvents, challenge: hoursKnown ? readChallenge(answers, language, withEvents) : null, clock: clockStyle(answers) };
}
