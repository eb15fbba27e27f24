import { addDays, type CoachingFacts, type SparkRun } from '@spark/contracts';
import { clientPhrase, shown } from '@spark/writing';

/** The client's words a draft may quote: a short phrase, so the message stays the coach's. */
export const QUOTED_WORDS = 8;
// A challenge is often a whole situation ("snacking late at night after my kids are asleep").
const CHALLENGE_WORDS = 10;

/** What the check-in summary is written from, beside the facts. */
export interface CheckInWeek {
  sparkDays: number;
  missedDays: string[];
  longestRun: SparkRun | null;
  clientNotes: string[];
}

export const weekdayOf = (isoDate: string) => new Date(`${isoDate}T12:00:00Z`).toLocaleDateString('en-US', { weekday: 'long', timeZone: 'UTC' });

function listed(items: string[]): string {
  if (items.length <= 2) return items.join(' and ');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

const phraseOf = (answer: string | null, words = QUOTED_WORDS) => {
  const phrase = answer ? clientPhrase(answer, words) : null;
  return phrase ? shown(phrase) : null;
};

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** A pause the client took during the silence is named, so the nudge never scolds a planned rest. */
function pauseSentence(facts: CoachingFacts): string | null {
  const since = facts.daysSinceLastSpark ?? facts.idleDays;
  const recent = facts.pauseDays.filter((day) => day <= facts.today && day > addDays(facts.today, -since));
  if (!recent.length) return null;
  return `Taking ${listed(recent.map(weekdayOf))} as a pause day was the right call.`;
}

function challengeSentence(facts: CoachingFacts, situation: 'slipped' | 'doing-well'): string | null {
  const challenge = phraseOf(facts.challenge, CHALLENGE_WORDS);
  if (!challenge) return null;
  // The phrase stands in parentheses: a shortened one ends in "…" and must not run into the sentence.
  return situation === 'slipped'
    ? `Reply and tell me what got in the way; if it was your biggest challenge again (${challenge}), we'll plan around it together.`
    : `Your biggest challenge (${challenge}) hasn't stopped you; notice what is helping.`;
}

/**
 * The nudge a coach starts from, in the coach's voice to the client: what happened (days since the last
 * spark, the streak that ended, the week's sparks, a pause day), their goal and challenge as short phrases,
 * and one small next step. The same facts give the same words.
 */
export function writeOfflineNudge(facts: CoachingFacts): string {
  const goal = phraseOf(facts.goal);
  const goalClause = goal ? ` toward your goal (${goal})` : '';
  const opening = `Hi ${facts.firstName},`;
  const sentences: (string | null)[] = [];
  switch (facts.situation) {
    case 'never-sparked':
      sentences.push(
        `${opening} it's day ${facts.evolutionDay} of Evolution ${facts.evolutionNumber} and I haven't seen your first spark yet.`,
        `No need for anything big: a photo of one small step${goalClause} is the perfect start.`,
        challengeSentence(facts, 'slipped'),
      );
      break;
    case 'streak-broke': {
      const ended = facts.endedStreak;
      sentences.push(
        ended && ended.days > 1
          ? `${opening} your ${ended.days}-day streak paused yesterday after your spark on ${weekdayOf(ended.to)}.`
          : `${opening} no spark came in yesterday, and I wanted to check in before it turns into a longer break.`,
        pauseSentence(facts),
        facts.sparksThisWeek ? `You still have ${plural(facts.sparksThisWeek, 'spark')} this week, and they count.` : null,
        `One spark today${goalClause} starts the next run.`,
        challengeSentence(facts, 'slipped'),
      );
      break;
    }
    case 'long-silence': {
      const ended = facts.endedStreak;
      sentences.push(
        `${opening} it's been ${facts.daysSinceLastSpark} days since your last spark, and I've missed seeing them.`,
        pauseSentence(facts),
        ended && ended.days > 1 ? `Before that you had a ${ended.days}-day run going, so you know you can do this.` : null,
        `No catching up needed: one small spark today${goalClause} is plenty.`,
        challengeSentence(facts, 'slipped'),
      );
      break;
    }
    case 'doing-well':
      sentences.push(
        facts.currentStreak > 1
          ? `${opening} ${plural(facts.sparksThisWeek, 'spark')} this week and a ${facts.currentStreak}-day streak: that's real momentum${goalClause}.`
          : `${opening} ${plural(facts.sparksThisWeek, 'spark')} this week: you're showing up${goalClause}.`,
        `It's day ${facts.evolutionDay} of Evolution ${facts.evolutionNumber}; keep it light and let today's spark be a small one.`,
        challengeSentence(facts, 'doing-well'),
      );
      break;
  }
  return sentences.filter(Boolean).join(' ');
}

/**
 * The Friday check-in summary, to the client: the week's sparks and streak, what went well (the longest
 * run, their own notes) and what slipped (the days without a spark), then one thing for next week.
 */
export function writeOfflineCheckIn(facts: CoachingFacts, week: CheckInWeek): string {
  const sentences: (string | null)[] = [];
  sentences.push(
    facts.sparksThisWeek
      ? `Hi ${facts.firstName}, here's your week: ${plural(facts.sparksThisWeek, 'spark')} on ${plural(week.sparkDays, 'day')}${facts.currentStreak ? `, and your streak is at ${plural(facts.currentStreak, 'day')}.` : '. Your next spark starts a new streak.'}`
      : `Hi ${facts.firstName}, this week had no sparks, and that's worth talking about rather than skipping.`,
  );
  const run = week.longestRun;
  const note = week.clientNotes[0] ? clientPhrase(week.clientNotes[0], QUOTED_WORDS) : null;
  const wentWell = [
    run && run.days > 1 ? `your ${run.days}-day run from ${weekdayOf(run.from)} to ${weekdayOf(run.to)}` : run ? `your spark on ${weekdayOf(run.to)}` : null,
    note ? `you wrote ${shown(note)}` : null,
  ].filter((item): item is string => item !== null);
  if (wentWell.length) sentences.push(`What went well: ${listed(wentWell)}.`);
  sentences.push(
    week.missedDays.length
      ? `What slipped: no spark on ${listed(week.missedDays.map(weekdayOf))}.`
      : facts.sparksThisWeek
        ? 'What slipped: nothing. You sparked on every day that counted.'
        : null,
  );
  const goal = phraseOf(facts.goal);
  const challenge = phraseOf(facts.challenge, CHALLENGE_WORDS);
  if (week.missedDays.length && challenge) sentences.push(`For next week: when your biggest challenge shows up (${challenge}), take one small spark anyway.`);
  else if (goal) sentences.push(`For next week: keep going toward your goal (${goal}).`);
  return sentences.filter(Boolean).join(' ');
}
