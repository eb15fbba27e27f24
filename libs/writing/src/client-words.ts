/** A short piece of the client's own answer, fit to place in a sentence written to them. */
export interface ClientPhrase {
  text: string;
  /** Their exact words (shown in quotation marks); false when "my" had to become "your". */
  verbatim: boolean;
}

const firstPerson = /(?<![\p{L}'’])(?:I|I'm|I’m|I've|I’ve|I'll|I’ll|I'd|I’d|[Mm]e|[Mm]y|[Mm]ine|[Mm]yself)(?![\p{L}'’])/u;
const toSecondPerson: [RegExp, string][] = [
  [/\bI am\b/g, 'you are'],
  [/\bI['’]m\b/g, 'you’re'],
  [/\bI['’]ve\b/g, 'you’ve'],
  [/\bI['’]ll\b/g, 'you’ll'],
  [/\bI['’]d\b/g, 'you’d'],
  [/\bI\b/g, 'you'],
  [/\bmyself\b/gi, 'yourself'],
  [/\bmine\b/gi, 'yours'],
  [/\bmy\b/gi, 'your'],
  [/\bme\b/gi, 'you'],
];
const intros = /^(?:I\s+(?:really\s+)?(?:want|would like|['’]d like|need|hope|plan|am trying|['’]m trying|would love)\s+to|my goal is(?:\s+to)?|I want|to)\s+/i;
const danglingWords = /^(?:a|an|the|my|your|to|of|in|on|at|for|with|and|or|as|after|before|by|from|el|la|los|las|de|del|en|le|les|du|des|der|die|das|und)$/i;
const joints = /\s+(?:and|that|which|so|when|while|because|but|y|que|et|und)\s+/i;

/** True when the text speaks as the client ("I", "my", "me"). */
export const speaksInFirstPerson = (text: string) => firstPerson.test(text);

/** Removes quoted spans: what stays is what the plan says in its own voice. */
export const withoutQuotes = (text: string) => text.replace(/“[^”]*”|"[^"]*"|«[^»]*»/g, ' ');

/** The quoted spans of a text, to hold them to a short phrase. */
export const quotedSpans = (text: string) => [...text.matchAll(/“([^”]*)”|"([^"]*)"|«([^»]*)»/g)].map((match) => match[1] ?? match[2] ?? match[3] ?? '');

export const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;

/**
 * The first idea of an answer, at most `maxWords` words: "I want to run a half marathon by June"
 * becomes "run a half marathon by June"; a longer idea is cut at "and", "that"… or else shortened with "…".
 * Null only for an answer with no words.
 */
export function clientPhrase(text: string, maxWords: number): ClientPhrase | null {
  let phrase = (text.split(/[.;!?\n]|,\s|\s[-–—]\s/)[0] ?? '').trim().replace(intros, '').trim();
  while (wordCount(phrase) > maxWords && joints.test(phrase)) phrase = phrase.split(joints)[0]?.trim() ?? '';
  if (wordCount(phrase) > maxWords) {
    const words = phrase.split(/\s+/).slice(0, maxWords);
    while (words.length > 1 && danglingWords.test(words.at(-1) ?? '')) words.pop();
    phrase = `${words.join(' ')}…`;
  }
  phrase = phrase.replace(/[\s,:]+$/, '');
  if (!phrase) return null;
  if (!speaksInFirstPerson(phrase)) return { text: phrase, verbatim: true };
  const swapped = toSecondPerson.reduce((result, [pattern, replacement]) => result.replace(pattern, replacement), phrase);
  return { text: swapped, verbatim: false };
}

/** How the phrase reads in a sentence: the client's exact words in quotation marks. */
export const shown = (phrase: ClientPhrase) =>
  phrase.verbatim
    ? `“${phrase.text}”`
    : phrase.text.replace(/^(?!(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun|Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec))\p{Lu}(?!\p{Lu})/u, (first) =>
        first.toLowerCase(),
      );

const stopWords = new Set(
  'with that this have from they what when your about after before then into more less just every really want need like time keep make feel being them their because would could should over only still even much many some also very been were will there where which while until than those these other always never often usually most each does doing done going through around again without myself yourself able back well good better best lose gain stop start stay feel feeling much para como pero porque entre antes despues después todo todos cada sobre avec pour dans plus tous mais sont nicht eine einen oder auch noch immer'.split(
    ' ',
  ),
);
const stem = (word: string) => word.slice(0, 5);

/** The words that carry an answer's meaning, cut to a common stem: "snacking" and "snacks" both give "snack". */
export function contentStems(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  // Scripts without spaces between words (Japanese, Chinese) count every run of two or more characters.
  return [
    ...new Set(
      words
        .filter(
          (word) =>
            (/^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+$/u.test(word)
              ? word.length >= 2
              : word.length >= 4 && !stopWords.has(word)) && !/^\d+$/.test(word),
        )
        .map(stem),
    ),
  ];
}

/** True when the text uses any of the answer's meaningful words. */
export const mentionsAny = (text: string, stems: string[]) => {
  const own = new Set(contentStems(text));
  return stems.some((item) => own.has(item));
};

/** True when the text reflects the answer: its meaningful words, or the answer itself when it is all small words ("Feel better"). */
export function reflects(text: string, answer: string): boolean {
  const stems = contentStems(answer);
  return stems.length ? mentionsAny(text, stems) : text.toLowerCase().includes(answer.trim().toLowerCase());
}
