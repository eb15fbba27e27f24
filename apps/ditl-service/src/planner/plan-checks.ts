import type { DayPlanContext } from './plan-context';
import type { DitlPlan } from '@spark/contracts';
import { clockDistance, formatClock, isAsleep, minutesAfter, sinceWaking, wakingSpan } from '../schedule/clock';
import { contentStems, mentionsAny, quotedSpans, reflects, speaksInFirstPerson, withoutQuotes, wordCount } from '@spark/writing';
import { type MomentTime, readMomentTime, relativeTimes } from './moment-time';

/** The rules every plan must keep, whichever planner wrote it. Shipped names: the docs table and the model's feedback use them. */
export const planChecks = ['awake', 'challengeTimed', 'habitTiming', 'uniqueHabits', 'secondPerson', 'answersReflected'] as const;
export type PlanCheck = (typeof planChecks)[number];

export const planCheckTitles: Record<PlanCheck, string> = {
  awake: 'no moment while asleep',
  challengeTimed: 'challenge near its time',
  habitTiming: 'habits at their time of day',
  uniqueHabits: 'no repeated habit',
  secondPerson: 'second person, short quotes',
  answersReflected: 'answers reflected',
};

export interface PlanViolation {
  check: PlanCheck;
  message: string;
}

/** How close (minutes) the challenge moment must sit to the time the client named or implied. */
export const CHALLENGE_WINDOW = 60;
const LONGEST_QUOTE_WORDS = 12;
const PASTED_RUN_WORDS = 8;
const windDownHabit = /before (?:bed|you sleep|sleep)|bedtime|screens? off|wind[- ]down|lights out|blackout/i;
const morningHabit = /of waking|when you wake|on waking|after (?:you )?wak|first thing|morning anchor/i;

const texts = (plan: DitlPlan) => [
  plan.title,
  plan.subtitle,
  ...plan.slides.flatMap((slide) => [slide.title, slide.narrative, slide.habit, slide.sparkToCapture]),
  ...Object.values(plan.weeklyRhythm),
  plan.closing,
];
const slideText = (slide: DitlPlan['slides'][number]) => `${slide.title} ${slide.narrative} ${slide.habit} ${slide.sparkToCapture}`;
const minuteOf = (time: MomentTime) => (time.type === 'unreadable' ? null : time.minute);

/** Which checks mean something for this client: a challenge with no time cannot be late or early. */
export const appliesTo = (check: PlanCheck, { schedule }: DayPlanContext) => check !== 'challengeTimed' || schedule.challenge !== null;

/** Every rule the plan breaks, each with a message a model (or a person) can act on. */
export function checkPlan(plan: DitlPlan, context: DayPlanContext): PlanViolation[] {
  const times = plan.slides.map((slide) => readMomentTime(slide.time, context.schedule));
  return [
    ...checkAwake(plan, context, times),
    ...checkChallengeTimed(plan, context, times),
    ...checkHabitTiming(plan, context, times),
    ...checkUniqueHabits(plan),
    ...checkSecondPerson(plan, context),
    ...checkAnswersReflected(plan, context, times),
  ];
}

function checkAwake(plan: DitlPlan, { schedule }: DayPlanContext, times: MomentTime[]): PlanViolation[] {
  const clock = (minute: number) => formatClock(minute, schedule.clock);
  const asleep = `${clock(schedule.sleep.minute)}–${clock(schedule.wake.minute)}`;
  return times.flatMap((time, index): PlanViolation[] => {
    const label = `Slide ${index + 1} (“${plan.slides[index]?.time}”)`;
    if (time.type === 'clock' && !schedule.hoursKnown) {
      return [
        {
          check: 'awake',
          message: `${label} gives a clock time, but the client's answers name no hours: use a time such as “${relativeTimes.wake}” or “${relativeTimes.sleep}”.`,
        },
      ];
    }
    if (time.type === 'unreadable' && schedule.hoursKnown) {
      return [
        {
          check: 'awake',
          message: `${label} is neither a clock time like “${clock(schedule.wake.minute)}” nor one of: ${Object.values(relativeTimes).join(', ')}.`,
        },
      ];
    }
    if (time.type === 'clock' && isAsleep(schedule, time.minute)) return [{ check: 'awake', message: `${label} falls while the client sleeps (${asleep}).` }];
    return [];
  });
}

function checkChallengeTimed(plan: DitlPlan, context: DayPlanContext, times: MomentTime[]): PlanViolation[] {
  const { challenge } = context.schedule;
  if (!challenge) return [];
  const stems = contentStems(context.answers.biggestChallenge);
  const near = plan.slides.some((slide, index) => {
    const minute = minuteOf(times[index] ?? { type: 'unreadable' });
    return minute !== null && clockDistance(minute, challenge.minute) <= CHALLENGE_WINDOW && mentionsAny(slideText(slide), stems);
  });
  if (near) return [];
  const at = formatClock(challenge.minute, context.schedule.clock);
  return [
    { check: 'challengeTimed', message: `The challenge shows up around ${at} (“${challenge.phrase}”), but no slide within an hour of ${at} deals with it.` },
  ];
}

function checkHabitTiming(plan: DitlPlan, { schedule }: DayPlanContext, times: MomentTime[]): PlanViolation[] {
  const clock = (minute: number) => formatClock(minute, schedule.clock);
  return plan.slides.flatMap((slide, index): PlanViolation[] => {
    const time = times[index];
    const minute = time ? minuteOf(time) : null;
    if (minute === null || (time?.type === 'relative' && time.dayOff)) return [];
    const sinceWake = sinceWaking(schedule, minute);
    if (windDownHabit.test(slide.habit) && sinceWake < wakingSpan(schedule) - 180) {
      return [
        {
          check: 'habitTiming',
          message: `Slide ${index + 1} (“${slide.time}”) has a wind-down habit, but bedtime is ${clock(schedule.sleep.minute)}: it belongs in the last hours before bed.`,
        },
      ];
    }
    if (morningHabit.test(slide.habit) && sinceWake > 120) {
      return [
        {
          check: 'habitTiming',
          message: `Slide ${index + 1} (“${slide.time}”) has a waking habit, but the client wakes at ${clock(schedule.wake.minute)}: it belongs right after waking.`,
        },
      ];
    }
    return [];
  });
}

const habitWords = (habit: string) => new Set(contentStems(habit.replace(/^[^:]{1,30}:\s*/, '')));

function checkUniqueHabits(plan: DitlPlan): PlanViolation[] {
  const habits = plan.slides.map((slide) => habitWords(slide.habit));
  const violations: PlanViolation[] = [];
  habits.forEach((words, index) => {
    habits.slice(0, index).forEach((earlier, earlierIndex) => {
      const shared = [...words].filter((word) => earlier.has(word)).length;
      // Most of the meaningful words in common: the same habit said twice.
      if (shared / Math.max(1, Math.min(words.size, earlier.size)) >= 0.6) {
        violations.push({
          check: 'uniqueHabits',
          message: `Slides ${earlierIndex + 1} and ${index + 1} repeat the same habit (“${plan.slides[index]?.habit}”).`,
        });
      }
    });
  });
  return violations;
}

function checkSecondPerson(plan: DitlPlan, { answers }: DayPlanContext): PlanViolation[] {
  const violations: PlanViolation[] = [];
  const all = texts(plan);
  const voiced = all.find((text) => speaksInFirstPerson(withoutQuotes(text)));
  if (voiced) violations.push({ check: 'secondPerson', message: `Speak to the client as “you”, not as “I” or “my”: “${voiced.slice(0, 80)}”.` });
  const longQuote = all.flatMap(quotedSpans).find((quote) => wordCount(quote) > LONGEST_QUOTE_WORDS);
  if (longQuote)
    violations.push({ check: 'secondPerson', message: `Quote at most ${LONGEST_QUOTE_WORDS} of the client's words, not “${longQuote.slice(0, 80)}”.` });
  const pasted = pastedRun(answers.typicalDay, all.join(' '));
  if (pasted)
    violations.push({ check: 'secondPerson', message: `Do not paste the typical-day answer back (“${pasted}”): describe the day in your own words.` });
  plan.slides.forEach((slide, index) => {
    if (!/\byou(?:r|rs|'re|’re|'ll|’ll|'ve|’ve)?\b/i.test(slide.narrative))
      violations.push({ check: 'secondPerson', message: `Slide ${index + 1}'s narrative is not written to the client (“you”).` });
  });
  return violations;
}

const normalise = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** The first run of the answer's words that the plan repeats verbatim, if it is long enough to be a paste. */
function pastedRun(answer: string, plan: string): string | null {
  const words = normalise(answer).split(' ');
  const haystack = ` ${normalise(plan)} `;
  for (let start = 0; start + PASTED_RUN_WORDS <= words.length; start++) {
    const run = words.slice(start, start + PASTED_RUN_WORDS).join(' ');
    if (haystack.includes(` ${run} `)) return run;
  }
  return null;
}

const familyWords: Partial<Record<NonNullable<DayPlanContext['answers']['familyStatus']>, RegExp>> = {
  parent: /\b(?:kids?|children|child|family|toddlers?|twins|son|daughter)\b/i,
  caregiver: /\b(?:car(?:e|ing|er)|yourself)\b/i,
  partnered: /\bpartner\b/i,
};

function checkAnswersReflected(plan: DitlPlan, context: DayPlanContext, times: MomentTime[]): PlanViolation[] {
  const { answers, schedule } = context;
  const whole = texts(plan).join(' ');
  const slides = plan.slides.map(slideText).join(' ');
  const missing: string[] = [];
  if (![plan.title, plan.subtitle, plan.closing].some((text) => text.includes(answers.firstName)))
    missing.push('the client’s first name (in the title or closing)');
  if (!reflects(whole, answers.transformationGoal)) missing.push('their goal, in their words');
  if (!reflects(slides, answers.biggestChallenge)) missing.push('their biggest challenge, in a slide');
  if (answers.currentWin?.trim() && !reflects(whole, answers.currentWin)) missing.push('their current win');
  const family = answers.familyStatus ? familyWords[answers.familyStatus] : undefined;
  if (family && !family.test(whole)) missing.push(`their family situation (${answers.familyStatus})`);
  if (schedule.daysOff && !times.some((time) => time.type === 'relative' && time.dayOff) && !/days? off|nights? off|weekends?|rest days?/i.test(slides)) {
    missing.push('a moment for the days off they described');
  }
  if (schedule.hoursKnown) {
    const ownTimes = [schedule.wake, schedule.sleep].filter((time) => time.source !== 'assumed').map((time) => time.minute);
    if (schedule.work) ownTimes.push(schedule.work.start, schedule.work.end);
    ownTimes.push(...schedule.events.map((event) => event.minute));
    const anchored = times.filter((time) => {
      const minute = minuteOf(time);
      return minute !== null && ownTimes.some((own) => clockDistance(own, minute) <= 45 || (minutesAfter(own, minute) <= 90 && minutesAfter(own, minute) > 0));
    }).length;
    if (anchored < 2) missing.push('at least two moments anchored to times the client gave');
  }
  return missing.map((what) => ({ check: 'answersReflected', message: `The plan does not reflect ${what}.` }));
}
