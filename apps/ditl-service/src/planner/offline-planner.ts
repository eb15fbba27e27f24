import { type ActivityLevel, cycleLengthDays, type DitlPlan, type GoalTag, type OnboardingAnswers } from '@spark/contracts';
import type { DitlPlanner, PlannedPresentation } from './planner';

// Movement that fits each activity level: a small start for sedentary days, a recovery focus for very active ones.
const movementByActivity: Record<ActivityLevel, string> = {
  sedentary: 'a 10-minute walk after lunch, nothing more',
  lightly_active: 'a brisk 20-minute walk or an easy bike ride',
  moderately_active: 'a 30-minute training block you already enjoy',
  very_active: 'your planned session plus 10 minutes of mobility to recover',
  extremely_active: 'a deliberate lighter day: mobility, stretching and sleep protect your gains',
};

const habitByTag: Record<GoalTag, string> = {
  'Weight Loss': 'fill half your plate with vegetables before anything else',
  Fitness: 'lay out your training clothes the night before',
  Strength: 'three sets of push-ups and squats before your shower',
  Nutrition: 'a protein-first breakfast, prepared the evening before',
  Sleep: 'screens off 45 minutes before bed',
  Productivity: 'one 50-minute focus block with your phone in another room',
  Energy: 'a glass of water and daylight within 15 minutes of waking',
  Stress: 'three slow breaths before you open your messages',
  Other: 'one five-minute action toward your goal before noon',
};

const firstSentence = (text: string) => (text.split(/(?<=[.!?])\s+/)[0] ?? text).trim();
const asSentence = (text: string) => (/[.!?…]$/.test(text) ? text : `${text}.`);
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text);

function habitsFor(answers: OnboardingAnswers): string[] {
  const tagged = answers.goalTags.map((tag) => habitByTag[tag]);
  return tagged.length ? tagged : [habitByTag.Other, habitByTag.Energy];
}

function eveningFor(answers: OnboardingAnswers): string {
  switch (answers.familyStatus) {
    case 'parent':
      return 'Dinner with the kids is part of the plan, not a break from it: one shared walk or game counts as movement.';
    case 'caregiver':
      return 'Caring for others takes energy; protect 15 minutes that belong only to you before the evening routine.';
    case 'partnered':
      return 'Tell your partner about today’s spark: saying it out loud doubles the accountability.';
    default:
      return 'The evening is yours: a short prep for tomorrow keeps the morning simple.';
  }
}

/**
 * The offline planner: a rule-based "Day in the Life" built from the same answers the model would
 * get, used when no model is configured. Deterministic and fast (well under 200 ms).
 */
export class OfflinePlanner implements DitlPlanner {
  plan(answers: OnboardingAnswers): Promise<PlannedPresentation> {
    return Promise.resolve({ plan: buildOfflinePlan(answers), planner: 'offline' });
  }
}

export function buildOfflinePlan(answers: OnboardingAnswers): DitlPlan {
  const name = answers.firstName;
  const goal = clip(firstSentence(answers.transformationGoal), 200);
  const challenge = clip(firstSentence(answers.biggestChallenge), 200);
  const [firstHabit, secondHabit = habitByTag.Energy, thirdHabit = habitByTag.Sleep] = habitsFor(answers);
  const work = answers.occupation?.trim() ? `your work as ${clip(answers.occupation.trim(), 80)}` : 'the core of your day';
  const win = answers.currentWin?.trim() ? `Keep what already works: ${clip(answers.currentWin.trim(), 200)}.` : 'Notice one thing that went well, however small.';
  return {
    title: clip(`${name}'s Day in the Life`, 120),
    subtitle: clip(`One ordinary day, rebuilt around your goal: ${goal}`, 300),
    slides: [
      {
        time: '6:30 AM',
        title: 'Start with intention',
        narrative: clip(`Your day today: ${asSentence(firstSentence(answers.typicalDay))} Before it takes over, you spend two minutes on why you started: ${asSentence(goal)}`, 800),
        habit: clip(`Morning anchor: ${firstHabit}.`, 300),
        sparkToCapture: 'A photo of your morning anchor done, before 8 AM.',
      },
      {
        time: '9:30 AM',
        title: 'Focus where it counts',
        narrative: clip(`During ${work}, you protect one block for what matters most instead of reacting to everything.`, 800),
        habit: clip(`Mid-morning: ${secondHabit}.`, 300),
        sparkToCapture: 'A snapshot of the one task you finished in your focus block.',
      },
      {
        time: '12:30 PM',
        title: 'Move and refuel',
        narrative: clip(`Movement sized for you: ${movementByActivity[answers.activityLevel]}.`, 800),
        habit: 'Eat lunch away from your screen, slowly, and stop at comfortably full.',
        sparkToCapture: 'Your lunch plate or the view from your walk.',
      },
      {
        time: '4:00 PM',
        title: 'Meet your challenge',
        narrative: clip(`This is usually when “${challenge}” shows up. You planned for it this morning, so the decision is already made.`, 800),
        habit: 'When the challenge appears: pause, name it, and take the smallest next step (two minutes counts).',
        sparkToCapture: 'A quick note or photo of the moment you chose the plan over the pattern.',
      },
      {
        time: '7:00 PM',
        title: 'Evening with purpose',
        narrative: clip(eveningFor(answers), 800),
        habit: clip(`Evening: ${thirdHabit}.`, 300),
        sparkToCapture: 'One photo of tomorrow already prepared.',
      },
      {
        time: '9:30 PM',
        title: 'Reflect and recover',
        narrative: clip(`${win} Sleep is where habits consolidate, so the day ends on purpose.`, 800),
        habit: 'Two lines in your journal: what worked, what to adjust tomorrow.',
        sparkToCapture: 'Your day’s best moment, captured before bed.',
      },
    ],
    weeklyRhythm: {
      sundayAlignment: clip(`Sunday alignment: choose this week’s three actions toward “${goal}” and put them in your calendar.`, 400),
      fridayCheckIn: clip(`Friday check-in with your coach: what moved, where “${challenge}” won, and one adjustment for next week.`, 400),
      rest: 'One full rest day each week: an easy walk, time with people you love, and no guilt. Recovery is part of the evolution.',
    },
    closing: clip(`${name}, this is one day. Repeat it imperfectly for ${cycleLengthDays(answers.customEvolutionDays)} days, capture a spark each time you follow through, and your coach will help you pivot, align and transform along the way.`, 600),
  };
}
