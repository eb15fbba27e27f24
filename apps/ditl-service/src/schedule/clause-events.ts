import type { DayEventKind } from '@spark/contracts';
import { minutesAfter, onClock } from './clock';
import { type DayLanguage, endWords, type KindWord, kindsIn } from './day-vocabulary';
import { type DayPart, findTimeMentions, type WrittenTime } from './time-mentions';

/** A time read from one clause, before the whole day is known. */
export interface ClockEvent {
  kind: DayEventKind;
  minute: number;
  endMinute?: number;
  /** The time is the end of something ("until 6", "log off at 6"), not its start. */
  isEnd: boolean;
  source: 'stated' | 'implied';
  phrase: string;
}

/** A moment named without a clock ("at night", "after work"), placed once the day is known. */
export interface PendingEvent {
  kind: DayEventKind;
  anchor: DayAnchor;
  /** The words that place it: "after work", "at night". */
  cue: string;
  phrase: string;
}

export type DayAnchor = DayPart | 'mid-morning' | 'mid-afternoon' | 'after-work' | 'before-work' | 'at-work' | 'after-dinner' | 'before-bed' | 'lunch';

// The kind that names a time when several words precede it: "dinner with my partner at 7" is dinner.
const kindPriority: DayEventKind[] = ['wake', 'sleep', 'work', 'meal', 'exercise', 'study', 'commute', 'care', 'travel', 'family', 'screens', 'rest', 'other'];

const hours = (from: number, to: number) => ({ from: from * 60, to: to * 60 });
type Window = { from: number; to: number };
const inWindow = (minute: number, window: Window) => minutesAfter(window.from, minute) <= minutesAfter(window.from, window.to);

// Where a bare hour of each kind usually falls, to tell "bed at 10" (PM) from "up at 10" (AM).
function windowFor(kind: DayEventKind, clause: string, isEnd: boolean): Window | null {
  switch (kind) {
    case 'wake':
      return hours(3, 12);
    case 'sleep':
      return isEnd ? hours(3, 13) : hours(19, 4);
    case 'work':
    case 'study':
      return isEnd ? hours(12, 23.99) : hours(5, 11.5);
    case 'meal':
      if (/breakfast|desayun|petit-d|frühstück/i.test(clause)) return hours(4, 11.5);
      if (/lunch|almuerzo|comida|déjeuner|mittag/i.test(clause)) return hours(11, 15.5);
      if (/dinner|supper|cena|ceno|dîn|abendessen/i.test(clause)) return hours(16, 23.99);
      return null;
    case 'rest':
      return /nap|siesta|sieste/i.test(clause) ? hours(12, 17) : null;
    case 'screens':
      return hours(12, 3);
    default:
      return null;
  }
}

export interface HourContext {
  cursor: number | null;
  hint: 'am' | 'pm' | null;
  /** For the end of a range: its start, so "8 to 5" ends at 5 PM and "7 PM to 7 AM" in the morning. */
  start?: number;
}

/** Turns a written time into minutes, choosing AM or PM when the text did not say. */
export function resolveTime(time: WrittenTime, kind: DayEventKind, clause: string, isEnd: boolean, context: HourContext): number {
  const base = (time.hour % 12) * 60 + time.minute;
  if (time.hour > 12 || time.meridiem) return time.meridiem === 'pm' ? onClock(base + 720) : onClock(time.hour > 12 ? time.hour * 60 + time.minute : base);
  if (context.hint) return context.hint === 'pm' ? base + 720 : base;
  const candidates = [base, base + 720];
  if (context.start !== undefined) {
    const start = context.start;
    const durations = candidates.map((minute) => minutesAfter(start, minute));
    const fitting = candidates.filter((_, index) => (durations[index] ?? 0) >= 60 && (durations[index] ?? 0) <= 16 * 60);
    return fitting.sort((a, b) => minutesAfter(start, a) - minutesAfter(start, b))[0] ?? base + 720;
  }
  const window = windowFor(kind, clause, isEnd);
  const inside = window ? candidates.filter((minute) => inWindow(minute, window)) : [];
  if (inside.length === 1) return inside[0] ?? base;
  const cursor = context.cursor;
  // A typical day is told in order: the next time after the last one is the likelier half.
  if (cursor !== null) return [...candidates].sort((a, b) => minutesAfter(cursor, a) - minutesAfter(cursor, b))[0] ?? base;
  return time.hour >= 5 && time.hour < 12 ? base : base + 720;
}

// Sleeping and waking said of someone else ("she's in bed by 8", "bath and bed for them at 7").
const aboutSomeoneElse =
  /^\W*(?:then\s+)?(?:she|he|they|her|his|their|the kids|kids|the children|the twins|the baby|my (?:son|daughter|mother|mum|mom|father|dad|kids|children|husband|wife|partner))\b|\bfor (?:them|her|him|the kids)\b/i;
const wakesTheClient = /\bwakes? (?:us|me)\b|\bgets? (?:us|me) up\b/i;
const relativeAnchors: [RegExp, DayAnchor][] = [
  [/\bmid-?morning\b/i, 'mid-morning'],
  [/\bmid-?afternoon\b/i, 'mid-afternoon'],
  [/\bafter (?:work|my shift|the shift|closing|office)\b|después del trabajo|après le travail|nach der arbeit/i, 'after-work'],
  [/\bbefore (?:work|my shift|the shift)\b|antes del trabajo|avant le travail|vor der arbeit/i, 'before-work'],
  [/\bafter (?:dinner|supper)\b|después de cenar|après le dîner|nach dem abendessen/i, 'after-dinner'],
  [/\bbefore (?:bed|sleep|sleeping)\b|\bin bed\b|antes de dormir|en la cama|avant de dormir|au lit|vor dem schlafen|im bett/i, 'before-bed'],
  [/\bmornings\b|por las mañanas|le matin|morgens/i, 'morning'],
  [/\bafternoons\b|por las tardes|l'après-midi|nachmittags/i, 'afternoon'],
  [/\bevenings\b|por las noches|le soir|abends/i, 'evening'],
  [/\blate-night\b|\blate at night\b|\bnights\b|la nuit|nachts/i, 'night'],
  [/\b(?:on|during) (?:a |my |the )?(?:night )?shifts?\b|\bat work\b|\bat the office\b|\bat my desk\b/i, 'at-work'],
  [/\b(?:at |over |during )?lunch ?(?:time|break)?\b/i, 'lunch'],
];

function mainKind(kinds: KindWord[]): DayEventKind | null {
  return kinds.length ? ([...kinds].sort((a, b) => kindPriority.indexOf(a.kind) - kindPriority.indexOf(b.kind))[0]?.kind ?? null) : null;
}

export interface ClauseReading {
  clock: ClockEvent[];
  pending: PendingEvent[];
  /** The clause's main kind, which a following clause with no words of its own inherits. */
  kind: DayEventKind | null;
}

/** Reads one clause of the typical day: its clock times with their kinds, and the moments named without a clock. */
export function readClause(
  clause: string,
  language: DayLanguage,
  cursor: number | null,
  inherited: DayEventKind | null,
  othersKind: 'family' | 'care' = 'family',
): ClauseReading {
  let kinds = kindsIn(clause, language);
  if (aboutSomeoneElse.test(clause) && !wakesTheClient.test(clause))
    kinds = kinds.map((item) => (item.kind === 'sleep' || item.kind === 'wake' ? { ...item, kind: othersKind } : item));
  // "sleep until 10" and "sleep in until 9" say when the client wakes.
  if (/\bsleep(?:s|ing)?(?: in)? until\b|\bsleep in\b|\blie-?in\b|\bduermo hasta\b|\bschlafe bis\b|\bdors jusqu/i.test(clause)) {
    kinds = [{ kind: 'wake', index: 0, word: 'sleep in' }, ...kinds.filter((item) => item.kind !== 'sleep')];
  }
  const mentions = findTimeMentions(clause, language);
  const clocks = mentions.filter((mention) => mention.type === 'clock');
  const parts = mentions.filter((mention) => mention.type === 'part');
  const hint = parts.some((part) => ['afternoon', 'evening', 'night'].includes(part.part)) ? 'pm' : parts.some((part) => part.part === 'morning') ? 'am' : null;
  const clauseKind = mainKind(kinds);
  const clock: ClockEvent[] = [];
  let position = 0;
  let last = cursor;
  for (const mention of clocks) {
    const before = kinds.filter((item) => item.index >= position && item.index < mention.index);
    const kind =
      (mention.end && kinds.some((item) => item.kind === 'work' || item.kind === 'study') && !kinds.some((item) => item.kind === 'sleep')
        ? kinds.find((item) => item.kind === 'work' || item.kind === 'study')?.kind
        : mainKind(before)) ??
      clauseKind ??
      (mention.end ? inherited : null) ??
      'other';
    const isEnd = !mention.end && endWords.test(clause.slice(Math.max(position, mention.index - 24), mention.index + mention.text.length));
    const minute = resolveTime(mention.start, kind, clause, isEnd, { cursor: last, hint: mention.start.meridiem ? null : hint });
    const endMinute = mention.end ? resolveTime(mention.end, kind, clause, true, { cursor: minute, hint: null, start: minute }) : undefined;
    clock.push({ kind, minute, endMinute, isEnd, source: 'stated', phrase: clause.trim().slice(0, 80) });
    last = endMinute ?? minute;
    position = mention.index + mention.text.length;
  }
  // Other things the clause names happen around its time: "up at 5:30 for a run" is a run at 5:30.
  const firstClock = clock[0];
  if (firstClock) {
    for (const { kind } of kinds) {
      if (kind === 'wake' || kind === 'sleep' || clock.some((event) => event.kind === kind)) continue;
      clock.push({ kind, minute: firstClock.minute, isEnd: false, source: 'implied', phrase: firstClock.phrase });
    }
    return { clock, pending: [], kind: clauseKind };
  }
  const cue = relativeCue(clause, parts[0]);
  if (!cue) return { clock, pending: [], kind: clauseKind };
  // In "after work I play with the kids" the moment is the kids, not the work that places it.
  const cueAt = clause.indexOf(cue.cue);
  const ownKind = mainKind(kinds.filter((item) => item.index < cueAt || item.index >= cueAt + cue.cue.length)) ?? clauseKind ?? 'other';
  const pending: PendingEvent[] = [{ kind: ownKind, ...cue, phrase: clause.trim().slice(0, 80) }];
  return { clock, pending, kind: clauseKind };
}

/** The first words of a clause that place it in the day without a clock: "after work", "at night". */
export function relativeCue(clause: string, part?: { part: DayPart; text: string }): { anchor: DayAnchor; cue: string } | null {
  for (const [pattern, anchor] of relativeAnchors) {
    const match = pattern.exec(clause);
    if (match) return { anchor, cue: match[0].trim() };
  }
  return part ? { anchor: part.part, cue: part.text } : null;
}
