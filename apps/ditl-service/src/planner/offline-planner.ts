import { DEFAULT_EVOLUTION_DAYS, type DitlPlan, type OnboardingAnswers } from '@spark/contracts';
import { formatClock } from '../schedule/clock';
import { clientPhrase, shown } from '@spark/writing';
import { dayMoments, type Moment } from './day-moments';
import { challengeHabit, dayOffHabit, defaultHabit, type Habit, movementHabit, tagHabit } from './habits';
import { type DayPlanContext, planContext } from './plan-context';
import type { DitlPlanner, PlannedPresentation } from './planner';

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text);

// Moments whose place is scarce choose first: a waking habit can only go at waking.
const choosingOrder: Moment['role'][] = ['wake', 'windDown', 'work', 'evening', 'movement', 'challenge', 'dayOff'];

/** One habit per moment, each used once: the client's goal tags where they belong, the moment's own otherwise. */
function habitsFor(moments: Moment[], context: DayPlanContext): Map<Moment, Habit> {
  const tagged = context.answers.goalTags.map((tag) => tagHabit(tag, context));
  const used = new Set<string>();
  const chosen = new Map<Moment, Habit>();
  for (const moment of [...moments].sort((a, b) => choosingOrder.indexOf(a.role) - choosingOrder.indexOf(b.role))) {
    const own =
      moment.role === 'movement'
        ? movementHabit(context)
        : moment.role === 'challenge'
          ? challengeHabit(context)
          : moment.role === 'dayOff'
            ? dayOffHabit(context)
            : null;
    const fromTags = tagged.find((habit) => !used.has(habit.id) && moment.habitSlots.includes(habit.slot));
    const fallback = moment.habitSlots[0] ? defaultHabit(moment.habitSlots[0], context) : null;
    const habit =
      [own, fromTags, fallback].find((candidate): candidate is Habit => candidate !== null && candidate !== undefined && !used.has(candidate.id)) ??
      defaultHabit('windDown', context);
    used.add(habit.id);
    chosen.set(moment, habit);
  }
  // A goal tag with no moment of its own still shows up: it takes the place of a moment's default habit.
  for (const habit of tagged.filter((candidate) => !used.has(candidate.id) && candidate.slot !== 'wake' && candidate.slot !== 'windDown')) {
    const host = moments.find((moment) => moment.habitSlots.includes('anytime') && !tagged.some((tag) => tag.id === chosen.get(moment)?.id));
    if (!host) break;
    used.add(habit.id);
    chosen.set(host, habit);
  }
  return chosen;
}

function subtitleFor(context: DayPlanContext, goal: string): string {
  switch (context.schedule.workPattern) {
    case 'night-shift':
      return `One working night, rebuilt around your goal: ${goal}.`;
    case 'rotating-shifts':
      return `One day of your rotation, rebuilt around your goal: ${goal}.`;
    case 'travel':
      return `One day on the road, rebuilt around your goal: ${goal}.`;
    default:
      return `One ordinary day, rebuilt around your goal: ${goal}.`;
  }
}

/**
 * The offline planner: a "Day in the Life" built from the client's own day (read by readDay) and
 * answers, used when no model is configured and whenever a model's plan breaks the plan checks.
 * Deterministic and fast (see bench/ditl-planner.ts).
 */
export class OfflinePlanner implements DitlPlanner {
  plan(answers: OnboardingAnswers, evolutionDays: number): Promise<PlannedPresentation> {
    return Promise.resolve({ plan: buildOfflinePlan(planContext(answers, evolutionDays)), planner: 'offline' });
  }
}

const warmUpAnswers: OnboardingAnswers[] = [
  {
    firstName: 'Sam',
    transformationGoal: 'More energy',
    goalTags: ['Energy', 'Sleep'],
    age: 30,
    activityLevel: 'sedentary',
    typicalDay: 'Up at 6:30, work 9 to 5, dinner at 7, bed by 11. On weekends I sleep in.',
    biggestChallenge: 'Snacking after work',
  },
  {
    firstName: 'Ana',
    transformationGoal: 'Dormir mejor',
    goalTags: [],
    age: 40,
    activityLevel: 'lightly_active',
    typicalDay: 'Me levanto a las 7, trabajo de 8 a 15 y ceno a las 21.',
    biggestChallenge: 'Picar por la tarde',
  },
];

/**
 * Plans a few sample days, twice: V8 compiles chrono-node's large regular expressions to machine
 * code on their second use, which takes a few hundred milliseconds once per process. A worker does
 * it at start, so no client's plan waits for it.
 */
export function warmUpOfflinePlanner(): void {
  for (let round = 0; round < 2; round++) for (const answers of warmUpAnswers) buildOfflinePlan(planContext(answers, DEFAULT_EVOLUTION_DAYS));
}

export function buildOfflinePlan(context: DayPlanContext): DitlPlan {
  const { answers, schedule } = context;
  const goalPhrase = clientPhrase(answers.transformationGoal, 12);
  const challengePhrase = clientPhrase(answers.biggestChallenge, 10);
  const moments = dayMoments({ context, at: (minute) => formatClock(minute, schedule.clock), goal: goalPhrase, challenge: challengePhrase });
  const habits = habitsFor(moments, context);
  const goal = goalPhrase ? shown(goalPhrase) : 'the goal you set';
  const challenge = challengePhrase ? shown(challengePhrase) : 'your challenge';
  const rest = schedule.daysOff
    ? 'Make one of your days off a full rest day: an easy walk, time with people you love, and no guilt. Recovery is part of the evolution.'
    : 'One full rest day each week: an easy walk, time with people you love, and no guilt. Recovery is part of the evolution.';
  return {
    title: clip(`${answers.firstName}'s Day in the Life`, 120),
    subtitle: clip(subtitleFor(context, goal), 300),
    slides: moments.map((moment) => ({
      moment: moment.role,
      time: clip(moment.time, 20),
      title: clip(moment.title, 120),
      narrative: clip(moment.narrative, 800),
      habit: clip(habits.get(moment)?.text ?? '', 300),
      sparkToCapture: clip(moment.sparkToCapture, 300),
    })),
    weeklyRhythm: {
      sundayAlignment: clip(`You choose this week’s three actions toward ${goal} and put them in your calendar.`, 400),
      fridayCheckIn: clip(`With your coach: what moved, where ${challenge} won, and one adjustment for next week.`, 400),
      rest,
    },
    closing: clip(
      `${answers.firstName}, this is one day. Repeat it imperfectly for ${context.evolutionDays} days, capture a spark each time you follow through, and your coach will help you pivot, align and transform along the way.`,
      600,
    ),
  };
}
