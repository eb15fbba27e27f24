import * as chrono from 'chrono-node';
import type { DayLanguage } from './day-vocabulary';

/** A clock time as written: the meridiem is null when the text did not say ("at 9", "until 6"). */
export interface WrittenTime {
  hour: number;
  minute: number;
  meridiem: 'am' | 'pm' | null;
}

/** A part of the day named without a clock ("at night", "in the afternoon"). */
export type DayPart = 'morning' | 'noon' | 'afternoon' | 'evening' | 'night' | 'midnight';

export type TimeMention =
  { type: 'clock'; index: number; text: string; start: WrittenTime; end: WrittenTime | null } | { type: 'part'; index: number; text: string; part: DayPart };

// chrono reads "at 9", "7 PM to 7 AM" and "from 9:00 to 17:30" on its own, but not a bare hour after
// "until", "by" or "around", nor "10-12": this parser adds exactly those, in each language we read.
// The look-ahead keeps counts out ("until 6 weeks", "10-12 minutes", "3 nights").
const connectors: Record<DayLanguage, { before: string; range: string }> = {
  en: { before: 'until|till|til|by|around|about|before|after|at|from|between|since|from about', range: '-|–|to|and|until|till' },
  es: { before: 'hasta|sobre|hacia|antes de las|después de las|a las|de|desde|entre', range: '-|–|a|hasta|y' },
  fr: { before: "jusqu'à|vers|avant|après|à|de|dès|entre", range: "-|–|à|jusqu'à|et" },
  de: { before: 'bis|gegen|um|vor|nach|ab|von|zwischen', range: '-|–|bis|und' },
};
const numberWords: Record<string, number> = {
  one: 1,
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
};
const notATime = String.raw`(?![:.]?\d|\s*(?:%|a\.?m\b|p\.?m\b|min|minutes?|hours?|hrs?|days?|nights?|weeks?|months?|years?|yrs?|kids?|children|km\b|k\b|miles?|kg|lbs?|times|x\b|th\b|st\b|nd\b|rd\b|shifts?|people|of\b|mins|sets|reps|steps|cups?|glass|kilos?|años|horas|minutos|heures|stunden|uhr\b))`;

function hourOf(token: string): number | null {
  const word = numberWords[token.toLowerCase()];
  if (word !== undefined) return word;
  const hour = Number(token);
  return Number.isInteger(hour) && hour >= 0 && hour <= 24 ? hour : null;
}

function bareHourParser(language: DayLanguage): chrono.Parser {
  const { before, range } = connectors[language];
  const hour = String.raw`(\d{1,2}|${Object.keys(numberWords).join('|')})(?:[:.h](\d{2}))?`;
  const pattern = new RegExp(String.raw`(?<![\w:.])(?:(${before})\s+)?${hour}(?:\s*(?:${range})\s*${hour})?${notATime}`, 'i');
  return {
    pattern: () => pattern,
    extract(context, match) {
      const [, prefix, startHour, startMinute, endHour, endMinute] = match;
      // A lone number is a count, not a time: it needs a preposition or a range to be read as one.
      if (!prefix && !endHour) return null;
      const start = hourOf(startHour ?? '');
      if (start === null || (!/^\d/.test(startHour ?? '') && !prefix)) return null;
      const components = { hour: start % 24, minute: Number(startMinute ?? 0) };
      if (!endHour) return context.createParsingResult(match.index ?? 0, match[0], components);
      const end = hourOf(endHour);
      if (end === null) return null;
      return context.createParsingResult(match.index ?? 0, match[0], components, { hour: end % 24, minute: Number(endMinute ?? 0) });
    },
  };
}

const baseParsers: Record<DayLanguage, chrono.Chrono> = { en: chrono.casual, es: chrono.es.casual, fr: chrono.fr.casual, de: chrono.de.casual };
const parsers = Object.fromEntries(
  Object.entries(baseParsers).map(([language, base]) => {
    const parser = base.clone();
    parser.parsers.push(bareHourParser(language as DayLanguage));
    return [language, parser];
  }),
) as Record<DayLanguage, chrono.Chrono>;

const partByHour: [number, DayPart][] = [
  [0, 'midnight'],
  [6, 'morning'],
  [12, 'noon'],
  [15, 'afternoon'],
  [20, 'evening'],
  [22, 'night'],
];

function writtenTime(components: chrono.ParsedComponents, text: string): WrittenTime {
  const hour = components.get('hour') ?? 0;
  const minute = components.get('minute') ?? 0;
  if (components.isCertain('meridiem')) return { hour, minute, meridiem: components.get('meridiem') === chrono.Meridiem.PM ? 'pm' : 'am' };
  // "17:30", "las 21", "noon" and "midnight" say their half of the day without am or pm.
  if (hour > 12 || /noon|midday|mediod|midi|mittag/i.test(text)) return { hour, minute, meridiem: 'pm' };
  if (hour === 0 || /midnight|medianoche|minuit|mitternacht/i.test(text)) return { hour, minute, meridiem: 'am' };
  return { hour, minute, meridiem: null };
}

/** The times of day a piece of text names, in the order written. Dates and weekdays are left out. */
export function findTimeMentions(text: string, language: DayLanguage): TimeMention[] {
  const reference = new Date(2026, 0, 5, 0, 0, 0);
  return parsers[language].parse(text, reference).flatMap((result): TimeMention[] => {
    // "for 45 minutes", "in an hour": durations, not times of day.
    if (result.tags().has('result/relativeDate')) return [];
    if (result.start.isCertain('hour')) {
      return [
        {
          type: 'clock',
          index: result.index,
          text: result.text,
          start: writtenTime(result.start, result.text),
          end: result.end?.isCertain('hour') ? writtenTime(result.end, result.text) : null,
        },
      ];
    }
    // "at night", "tonight", "this afternoon": chrono implies an hour for the part of the day.
    const implied = result.start.get('hour');
    if (implied === null || result.start.isCertain('weekday') || result.start.isCertain('day')) return [];
    const part = [...partByHour].reverse().find(([from]) => implied >= from)?.[1] ?? 'morning';
    return [{ type: 'part', index: result.index, text: result.text, part: /night/i.test(result.text) ? 'night' : part }];
  });
}
