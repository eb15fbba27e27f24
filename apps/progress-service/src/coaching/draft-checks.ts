import type { CoachingFacts } from '@spark/contracts';
import { quotedSpans, reflects, wordCount } from '@spark/writing';
import type { CheckInWeek } from './offline-writer';

/** One rule a draft breaks, in words the model can act on. */
export interface DraftViolation {
  rule: 'length' | 'second-person' | 'names-a-fact' | 'invented-number' | 'short-quotes' | 'first-name';
  message: string;
}

export const NUDGE_MAX_CHARS = 600;
export const CHECK_IN_MAX_CHARS = 900;
export const MAX_QUOTED_WORDS = 12;

const numberWords: Record<string, number> = {
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  twenty: 20,
  thirty: 30,
};

/** Every number the text states, in digits or as a word ("two days"); "one" is too often not a number to count. */
export function numbersIn(text: string): number[] {
  const digits = [...text.matchAll(/\d+(?:[.,]\d+)?/g)].map((match) => Number(match[0].replace(',', '.')));
  const words = (text.toLowerCase().match(/\p{L}+/gu) ?? []).filter((word) => word in numberWords).map((word) => numberWords[word] as number);
  return [...digits, ...words];
}

/** The numbers a draft may state: the facts', the week's, and any the client wrote in their own goal or challenge. */
export function factNumbers(facts: CoachingFacts, week?: CheckInWeek): Set<number> {
  const values = [
    facts.idleDays,
    facts.daysSinceLastSpark,
    facts.currentStreak,
    facts.endedStreak?.days,
    facts.evolutionNumber,
    facts.evolutionDay,
    facts.evolutionDays,
    facts.sparksThisWeek,
  ];
  if (week) values.push(week.sparkDays, week.missedDays.length, week.longestRun?.days);
  const clientWords = [facts.goal, facts.challenge, ...(week?.clientNotes ?? [])].filter((text): text is string => !!text);
  return new Set([...values.filter((value): value is number => typeof value === 'number'), ...clientWords.flatMap(numbersIn)]);
}

/** A real fact the text names: a number that only the facts give, or the client's goal or challenge in other words. */
function namesAFact(text: string, facts: CoachingFacts, week?: CheckInWeek): boolean {
  const specific = [
    facts.daysSinceLastSpark,
    facts.endedStreak?.days,
    facts.sparksThisWeek,
    facts.currentStreak,
    facts.evolutionDay,
    week?.missedDays.length,
  ].filter((value): value is number => typeof value === 'number' && value > 0);
  const stated = new Set(numbersIn(text));
  if (specific.some((value) => stated.has(value))) return true;
  return [facts.goal, facts.challenge].some((answer) => !!answer && reflects(text, answer));
}

/** The rules every draft keeps, whichever writer wrote it (docs/coaching.md). */
export function checkDraft(text: string, facts: CoachingFacts, options: { maxChars: number; week?: CheckInWeek }): DraftViolation[] {
  const violations: DraftViolation[] = [];
  const trimmed = text.trim();
  if (!trimmed || trimmed.length > options.maxChars) {
    violations.push({ rule: 'length', message: `The message must be between 1 and ${options.maxChars} characters; it has ${trimmed.length}.` });
  }
  if (!/\byou(?:r|'re|’re|'ve|’ve|rself)?\b/i.test(trimmed)) {
    violations.push({ rule: 'second-person', message: 'Speak to the client as "you"; the message never says "you" or "your".' });
  }
  if (facts.firstName !== 'there' && !trimmed.includes(facts.firstName)) {
    violations.push({ rule: 'first-name', message: `Address the client by their first name, ${facts.firstName}.` });
  }
  if (!namesAFact(trimmed, facts, options.week)) {
    violations.push({
      rule: 'names-a-fact',
      message: "Name at least one real fact: the days since the last spark, the streak, the sparks this week, or the client's goal or challenge.",
    });
  }
  const allowed = factNumbers(facts, options.week);
  const invented = [...new Set(numbersIn(trimmed).filter((value) => !allowed.has(value)))];
  if (invented.length) {
    violations.push({ rule: 'invented-number', message: `These numbers are not in the facts: ${invented.join(', ')}. Use only the numbers the facts give.` });
  }
  const longQuote = quotedSpans(trimmed).find((span) => wordCount(span) > MAX_QUOTED_WORDS);
  if (longQuote) {
    violations.push({
      rule: 'short-quotes',
      message: `Quote at most ${MAX_QUOTED_WORDS} words of the client's answers; “${longQuote.slice(0, 60)}…” is longer.`,
    });
  }
  return violations;
}
