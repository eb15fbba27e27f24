import type { ActivityLevel, GoalTag } from '@spark/contracts';
import { formatClock } from '../schedule/clock';
import { retiredWords } from '../schedule/day-vocabulary';
import type { DayPlanContext } from './plan-context';

/** Where in the day a habit belongs: waking habits right after waking, wind-down habits before bed. */
export type HabitSlot = 'wake' | 'work' | 'meal' | 'evening' | 'windDown' | 'anytime';

export interface Habit {
  /** One habit, one slide: the planner never uses an id twice. */
  id: string;
  slot: HabitSlot;
  text: string;
}

/** How the client's work shapes what fits: a desk, a job on their feet, studies, or none. */
export type WorkStyle = 'desk' | 'on-feet' | 'student' | 'none';

export function workStyleOf({ answers, schedule }: DayPlanContext): WorkStyle {
  const text = `${answers.occupation ?? ''} ${answers.typicalDay}`;
  if (retiredWords.test(text)) return 'none';
  if (/student|lectures?|university|college|estudiante|étudiant|studium/i.test(text)) return 'student';
  if (
    /nurse|cook|chef|waiter|server|retail|barista|warehouse|operator|plant|construction|paramedic|cleaner|trades|restaurant|profesor|teacher|enfermer|mechanic|care worker/i.test(
      text,
    )
  )
    return 'on-feet';
  if (schedule.workPattern === 'none') return 'none';
  return 'desk';
}

const isShiftWork = ({ schedule }: DayPlanContext) => schedule.workPattern === 'night-shift' || schedule.workPattern === 'rotating-shifts';

const bedtimeWords = ({ schedule }: DayPlanContext) =>
  schedule.sleep.source === 'assumed' ? 'bed' : `your ${formatClock(schedule.sleep.minute, schedule.clock)} bedtime`;

/** The habit each goal tag asks for, worded for this client's day. */
export function tagHabit(tag: GoalTag, context: DayPlanContext): Habit {
  const { answers } = context;
  switch (tag) {
    case 'Weight Loss':
      return { id: 'half-plate', slot: 'meal', text: 'Fill half your plate with vegetables before anything else.' };
    case 'Fitness':
      return { id: 'training-clothes', slot: 'evening', text: 'Lay out your training clothes for tomorrow.' };
    case 'Strength':
      return answers.age >= 60
        ? { id: 'strength', slot: 'wake', text: 'Ten sit-to-stands from a kitchen chair while the kettle boils.' }
        : { id: 'strength', slot: 'wake', text: 'Three sets of push-ups and squats before your shower.' };
    case 'Nutrition':
      return { id: 'protein-first', slot: 'meal', text: 'Make your next meal protein-first: eggs, yogurt, fish or beans before anything sweet.' };
    case 'Sleep':
      return isShiftWork(context)
        ? { id: 'screens-off', slot: 'windDown', text: `Blackout blinds down and screens off 45 minutes before ${bedtimeWords(context)}.` }
        : { id: 'screens-off', slot: 'windDown', text: `Screens off 45 minutes before ${bedtimeWords(context)}.` };
    case 'Productivity':
      return { id: 'focus-block', slot: 'work', text: 'One 50-minute focus block with your phone in another room.' };
    case 'Energy':
      return isShiftWork(context)
        ? { id: 'water-daylight', slot: 'wake', text: 'A glass of water and daylight (or a bright lamp) within 15 minutes of waking.' }
        : { id: 'water-daylight', slot: 'wake', text: 'A glass of water and daylight within 15 minutes of waking.' };
    case 'Stress':
      return { id: 'three-breaths', slot: 'work', text: 'Three slow breaths before you open your messages.' };
    case 'Other':
      return { id: 'five-minutes', slot: 'anytime', text: 'One five-minute action toward your goal.' };
  }
}

/** What a moment gets when none of the client's goal tags belongs there. */
export function defaultHabit(slot: HabitSlot, context: DayPlanContext): Habit {
  switch (slot) {
    case 'wake':
      return { id: 'first-win', slot, text: 'Make your bed and open the curtains: the day’s first small win, before your phone.' };
    case 'work':
      switch (workStyleOf(context)) {
        case 'on-feet':
          return { id: 'sit-break', slot, text: 'Sit down with water and something to eat on your break, even for five minutes.' };
        case 'student':
          return { id: 'study-walk', slot, text: 'A 10-minute walk between study blocks, phone in your pocket.' };
        case 'desk':
        case 'none':
          return { id: 'stand-hourly', slot, text: 'Stand, stretch and refill your water once an hour.' };
      }
      break;
    case 'meal':
      return { id: 'slow-meal', slot, text: 'Eat away from your screen, slowly, and stop at comfortably full.' };
    case 'evening':
    case 'anytime':
      return familyHabit(context);
    case 'windDown':
      return { id: 'journal', slot, text: 'Two lines in your journal: what worked, what to adjust tomorrow.' };
  }
}

function familyHabit({ answers }: DayPlanContext): Habit {
  switch (answers.familyStatus) {
    case 'parent':
      return { id: 'family', slot: 'evening', text: 'One shared walk or game with the kids: it counts as movement.' };
    case 'caregiver':
      return { id: 'family', slot: 'evening', text: 'Fifteen minutes that belong only to you: a walk, a call, a book.' };
    case 'partnered':
      return { id: 'family', slot: 'evening', text: 'Tell your partner about today’s spark: saying it out loud doubles the accountability.' };
    default:
      return { id: 'family', slot: 'evening', text: 'Five minutes of prep for tomorrow, so the morning starts simple.' };
  }
}

const movementByActivity: Record<ActivityLevel, string> = {
  sedentary: 'A 10-minute walk, nothing more',
  lightly_active: 'A brisk 20-minute walk',
  moderately_active: '30 minutes of training you already enjoy',
  very_active: 'Your planned session, then 10 minutes of mobility to recover',
  extremely_active: 'A deliberately lighter day: mobility and stretching protect your gains',
};

/** Movement sized for the client: activity level first, then age, then what their work already asks of their body. */
export function movementHabit(context: DayPlanContext): Habit {
  const { answers } = context;
  const onFeet = workStyleOf(context) === 'on-feet' && ['sedentary', 'lightly_active', 'moderately_active'].includes(answers.activityLevel);
  let text = onFeet ? 'Ten minutes of stretching for calves, hips and back: your work already keeps you walking' : movementByActivity[answers.activityLevel];
  if (answers.age >= 65) text += ', then two minutes of balance practice with one hand on a counter';
  else if (answers.age >= 50) text += ', then two minutes of mobility for hips and shoulders';
  // Strength work protects bone density, which falls fastest for women from their mid-forties.
  if (answers.gender === 'female' && answers.age >= 45 && answers.activityLevel !== 'extremely_active') text += '; twice a week, make it strength work';
  return { id: 'movement', slot: 'anytime', text: `${text}.` };
}

const challengeHabits: [RegExp, string][] = [
  [/late meals?|late dinners?|after closing/i, 'Eat a proper meal on your break, so closing time is not when you first sit down to eat.'],
  [
    /vending|snack|sugar|sweet|crav|candy|chocolate|junk|fast food|takeaway|leftover|picar|food|eat|meal/i,
    'Have a planned snack ready (protein plus fruit), so the craving meets a decision you already made.',
  ],
  [/scroll|phone|screen|netflix|\btv\b|gaming|instagram|tiktok|youtube/i, 'Phone on its charger in another room; a book or a podcast takes its place.'],
  [/tired|energy|exhaust|crash|slump|fatigue|drinks?/i, 'Two minutes outside and a glass of water before you decide anything.'],
  [/stiff|strength|pain|joint|ache/i, 'Five minutes of gentle mobility before you get going: neck, shoulders, hips.'],
  [/drink|alcohol|wine|beer|\bbars?\b/i, 'Order a sparkling water first; decide about the rest after it.'],
  [/stress|anxi|overwhelm|busy|no time/i, 'Name what you feel, then do one thing from your list, not five.'],
];

/** What to do when the client's own challenge shows up, matched to what it is about. */
export function challengeHabit({ answers }: DayPlanContext): Habit {
  const text = challengeHabits.find(([pattern]) => pattern.test(answers.biggestChallenge))?.[1];
  return { id: 'challenge-plan', slot: 'anytime', text: text ?? 'When it appears: pause, name it, and take the smallest next step (two minutes counts).' };
}

export function dayOffHabit(context: DayPlanContext): Habit {
  return context.schedule.workPattern === 'night-shift'
    ? { id: 'day-off', slot: 'anytime', text: 'Sleep at night, and wake within two hours of your work-day wake-up.' }
    : { id: 'day-off', slot: 'anytime', text: 'One longer session of movement you enjoy, with people you like.' };
}
