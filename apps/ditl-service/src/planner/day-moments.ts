import type { DayEvent, DitlMomentKind, ScheduledTime } from '@spark/contracts';
import { clockDistance, formatClock, isAsleep, minutesAfter, onClock, sinceWaking, wakingSpan } from '../schedule/clock';
import { type ClientPhrase, clientPhrase, shown } from '@spark/writing';
import { type HabitSlot, workStyleOf } from './habits';
import { relativeTimes, WIND_DOWN_LEAD } from './moment-time';
import type { DayPlanContext } from './plan-context';

/** The kinds of moment the offline planner makes (`other` is the model's); each takes at most one slide. */
export type MomentRole = Exclude<DitlMomentKind, 'other'>;

export interface Moment {
  role: MomentRole;
  /** Minutes after midnight, or null when the plan does not know the hour. */
  minute: number | null;
  time: string;
  title: string;
  narrative: string;
  sparkToCapture: string;
  /** Which habits may sit here besides the moment's own. */
  habitSlots: HabitSlot[];
}

// When two moments would sit within this many minutes, the less important one moves or goes.
const CROWDED = 30;
const importance: MomentRole[] = ['wake', 'challenge', 'windDown', 'work', 'movement', 'evening', 'dayOff'];
const nudges = [CROWDED, -CROWDED, 45, -45];

const mealName = (minute: number) => (minute < 11 * 60 ? 'breakfast' : minute < 16 * 60 ? 'lunch' : 'dinner');
const englishWords = /\b(?:the|and|at|my|to|up|for|with)\b/i;

/** What to call one of the client's events in a sentence: their own word in English answers, a plain noun otherwise. */
function eventName(event: DayEvent): string {
  if (event.kind === 'meal') return mealName(event.minute);
  const own = englishWords.test(event.phrase)
    ? /\b(run|swim|gym|yoga|ride|walk the dog|dog walk|walk|training|school run|pick-?up|drop-?off|lectures?|class)\b/i.exec(event.phrase)?.[1]
    : undefined;
  if (own) return /walk the dog/i.test(own) ? 'dog walk' : own.toLowerCase();
  const nouns: Record<DayEvent['kind'], string> = {
    wake: 'wake-up',
    sleep: 'bedtime',
    work: 'work',
    meal: 'meal',
    exercise: 'training',
    family: 'family time',
    care: 'care duties',
    commute: 'commute',
    study: 'study block',
    screens: 'screen time',
    rest: 'break',
    travel: 'travel',
    other: 'plans',
  };
  return nouns[event.kind];
}

export interface MomentWriter {
  context: DayPlanContext;
  at(minute: number): string;
  goal: ClientPhrase | null;
  challenge: ClientPhrase | null;
}

const known = (time: ScheduledTime) => time.source !== 'assumed';

function wakeMoment(writer: MomentWriter): Moment {
  const { schedule } = writer.context;
  const { wake } = schedule;
  const goal = writer.goal ? shown(writer.goal) : 'the goal that brought you here';
  const firstMove = schedule.events.find((event) => event.kind === 'exercise' && minutesAfter(wake.minute, event.minute) <= 60);
  let opening: string;
  if (!schedule.hoursKnown) {
    opening =
      'Your answer about your typical day did not mention times, so this plan follows the order of your day rather than the clock. ' +
      'Tell your coach when you usually wake and go to sleep, and together you will set each moment to your hours.';
  } else if (firstMove && known(wake)) opening = `You are up at ${writer.at(wake.minute)} for your ${eventName(firstMove)}.`;
  else if (schedule.workPattern === 'night-shift' && known(wake)) opening = `Your day starts at ${writer.at(wake.minute)}, after your daytime sleep.`;
  else if (known(wake)) opening = `Your day starts at ${writer.at(wake.minute)}.`;
  else {
    const first = schedule.work
      ? `work at ${writer.at(schedule.work.start)}`
      : schedule.events[0]
        ? `your ${eventName(schedule.events[0])} at ${writer.at(schedule.events[0].minute)}`
        : 'the day asks things of you';
    opening = `The first minutes after you wake, before ${first}, are yours.`;
  }
  return {
    role: 'wake',
    minute: wake.minute,
    time: schedule.hoursKnown && known(wake) ? writer.at(wake.minute) : relativeTimes.wake,
    title: schedule.workPattern === 'night-shift' && known(wake) ? `Your morning, at ${writer.at(wake.minute)}` : 'Start with intention',
    narrative: `${opening} Before anything else, you spend two minutes on why you started: ${goal}.`,
    sparkToCapture: 'A photo of your morning anchor, done.',
    habitSlots: ['wake'],
  };
}

function workMoment(writer: MomentWriter): Moment | null {
  const { schedule } = writer.context;
  const work = schedule.work;
  if (!work || !schedule.hoursKnown) return null;
  const start = writer.at(work.start);
  const shift = schedule.workPattern === 'night-shift' || schedule.workPattern === 'rotating-shifts' || schedule.workPattern === 'weekend-work';
  if (shift) {
    const rotation =
      schedule.workPattern === 'rotating-shifts' ? ' When your shifts rotate, this moment moves with them: it is always the half hour before you leave.' : '';
    return {
      role: 'work',
      minute: onClock(work.start - 30),
      time: writer.at(work.start - 30),
      title: 'Before your shift',
      narrative: `Your shift starts at ${start} and ends at ${writer.at(work.end)}. You leave fed and prepared, so the long hours do not decide for you.${rotation}`,
      sparkToCapture: 'A photo of the food you are taking with you.',
      habitSlots: ['meal', 'work', 'anytime'],
    };
  }
  const style = workStyleOf(writer.context);
  const narrative =
    schedule.workPattern === 'travel'
      ? `Meetings from ${start}, often in a new city. You keep one thing the same wherever you are, so the week has an anchor.`
      : style === 'student'
        ? `Your study day starts at ${start}. You protect one block for what matters most instead of reacting to everything.`
        : style === 'on-feet'
          ? `Your working day starts at ${start}, on your feet. You plan your break now, because a busy day will not offer one.`
          : `Your working day starts at ${start}. You protect one block for what matters most instead of reacting to everything.`;
  return {
    role: 'work',
    minute: work.start,
    time: start,
    title: style === 'student' ? 'Into your study block' : 'Focus where it counts',
    narrative,
    sparkToCapture: 'A snapshot of the one task you finished in your focus block.',
    habitSlots: ['work', 'anytime'],
  };
}

function movementMoment(writer: MomentWriter): Moment {
  const { schedule, answers } = writer.context;
  const active = answers.activityLevel === 'very_active' || answers.activityLevel === 'extremely_active';
  const exercise = schedule.events.find((event) => event.kind === 'exercise');
  const lateFinish = schedule.work !== null && minutesAfter(schedule.work.end, schedule.sleep.minute) <= 3 * 60;
  const style = workStyleOf(writer.context);
  const lunch = schedule.events.find((event) => event.kind === 'meal' && event.minute >= 11 * 60 && event.minute <= 15 * 60);
  let minute: number | null = null;
  let narrative: string;
  if (!schedule.hoursKnown) narrative = 'At the first break your day gives you, you move: sized for you, not for an athlete in an advert.';
  else if (exercise && (active || answers.age >= 60)) {
    const early = minutesAfter(schedule.wake.minute, exercise.minute) <= 60;
    minute = early ? onClock(exercise.minute + 45) : exercise.minute;
    narrative = early
      ? `Your ${eventName(exercise)} at ${writer.at(exercise.minute)} is already part of your day; what you do right after it is what makes it last.`
      : `Your ${eventName(exercise)} at ${writer.at(exercise.minute)} is already part of your day: you make it count, at your pace.`;
  } else if (lunch) {
    minute = lunch.minute;
    narrative = `Lunch at ${writer.at(lunch.minute)}: you eat, then you move before the afternoon takes over.`;
  } else if (schedule.workPattern === 'night-shift') {
    minute = onClock(schedule.wake.minute + 90);
    narrative = 'Before your shift, while it is still light, you get outside: daylight now helps you sleep later.';
  } else if (exercise) {
    minute = exercise.minute;
    narrative = `Your ${eventName(exercise)} at ${writer.at(exercise.minute)} is already part of your day: you make it count, at your pace.`;
  } else if (schedule.work && lateFinish) {
    minute = onClock(schedule.work.start - 90);
    narrative = 'Your work ends late, so you move before it starts, while the day is still yours.';
  } else if (schedule.work) {
    minute = onClock(schedule.work.end + 30);
    narrative =
      schedule.workPattern === 'travel'
        ? 'After your last meeting, before dinner, you move: the hotel gym, a run, or twenty minutes in your room.'
        : style === 'student'
          ? 'When your last study block ends, you move before you sit down again: it draws a line under the day’s work.'
          : 'After work, before you sit down at home, you move: it draws a line under the working day.';
  } else {
    minute = onClock(schedule.wake.minute + wakingSpan(schedule) * 0.35);
    narrative = 'In the middle of your day, you step away and move.';
  }
  return {
    role: 'movement',
    minute,
    time: minute === null ? relativeTimes.firstBreak : writer.at(minute),
    title: 'Move, sized for you',
    narrative,
    sparkToCapture: 'The view from your walk, or your shoes by the door.',
    habitSlots: [],
  };
}

function challengeMoment(writer: MomentWriter): Moment {
  const { schedule } = writer.context;
  const named = writer.challenge ? shown(writer.challenge) : 'the challenge you named';
  const placed = schedule.challenge;
  return {
    role: 'challenge',
    minute: placed?.minute ?? null,
    time: placed ? writer.at(placed.minute) : relativeTimes.challenge,
    title: 'Meet your challenge',
    narrative: placed
      ? `This is when your challenge tends to show up: ${named}. You planned for it earlier, so the decision is already made.`
      : `Your challenge, ${named}, keeps no schedule, so this moment is wherever it shows up. You planned for it this morning, so the decision is already made.`,
    sparkToCapture: 'A quick note or photo of the moment you chose the plan over the pattern.',
    habitSlots: [],
  };
}

const familyLines: Record<string, string> = {
  parent: 'Time with the kids is part of the plan, not a break from it: you turn one part of it into movement together.',
  caregiver: 'Caring for someone takes energy; you protect a few minutes that belong only to you.',
  partnered: 'This hour is for you and your partner: you share how the day went, sparks included.',
};

function eveningMoment(writer: MomentWriter): Moment | null {
  const { schedule, answers } = writer.context;
  // Work that ends close to bedtime leaves no evening to plan.
  if (schedule.work && schedule.workPattern !== 'night-shift' && minutesAfter(schedule.work.end, schedule.sleep.minute) <= 3 * 60) return null;
  const half = wakingSpan(schedule) / 2;
  const later = schedule.events.filter(
    (event) => sinceWaking(schedule, event.minute) >= half && sinceWaking(schedule, event.minute) < wakingSpan(schedule) - 90,
  );
  const dinner = later.find((event) => event.kind === 'meal' && event.minute >= 16 * 60);
  const anchor = dinner ?? later.find((event) => (event.kind === 'family' || event.kind === 'care') && event.minute >= 16 * 60);
  const line =
    familyLines[answers.familyStatus ?? ''] ??
    (schedule.hoursKnown
      ? 'The evening is yours: a short prep for tomorrow keeps the morning simple.'
      : 'It is an anchor you already have: you give it your full attention.');
  let minute: number | null = null;
  let opening = '';
  if (!schedule.hoursKnown) opening = 'Your main meal of the day.';
  else if (anchor) {
    minute = anchor.minute;
    opening = `${eventName(anchor).replace(/^./, (first) => first.toUpperCase())} at ${writer.at(anchor.minute)}.`;
  } else if (schedule.workPattern === 'night-shift' && schedule.work) {
    minute = onClock(schedule.work.start - 90);
    opening = 'You have an hour before you head out for the night.';
  } else {
    minute =
      schedule.work && minutesAfter(schedule.work.end, schedule.sleep.minute) > 4 * 60 ? onClock(schedule.work.end + 90) : onClock(schedule.sleep.minute - 150);
  }
  const mealTime = !schedule.hoursKnown || dinner !== undefined;
  return {
    role: 'evening',
    minute,
    time: minute === null ? relativeTimes.mainMeal : writer.at(minute),
    title:
      answers.familyStatus === 'parent' ? 'Together, on purpose' : schedule.workPattern === 'night-shift' ? 'Time before the night' : 'Evening with purpose',
    narrative: opening ? `${opening} ${line}` : line,
    sparkToCapture: answers.familyStatus === 'parent' ? 'A photo from your shared walk or game.' : 'One photo of tomorrow already prepared.',
    habitSlots: mealTime ? ['meal', 'evening', 'anytime'] : ['evening', 'anytime'],
  };
}

function windDownMoment(writer: MomentWriter): Moment {
  const { schedule, answers } = writer.context;
  const minute = onClock(schedule.sleep.minute - WIND_DOWN_LEAD);
  const win = answers.currentWin?.trim() ? clientPhrase(answers.currentWin, 10) : null;
  const keep = win ? `Keep what already works: ${shown(win)}. ` : 'You notice one thing that went well, however small. ';
  const bedtime = schedule.hoursKnown && known(schedule.sleep) ? `Bed at ${writer.at(schedule.sleep.minute)}` : 'Sleep';
  const homeFromShift =
    schedule.workPattern === 'night-shift' && schedule.work
      ? `Your shift ends at ${writer.at(schedule.work.end)}; on the way home, sunglasses on, so daylight does not wake you up. `
      : '';
  return {
    role: 'windDown',
    minute,
    time: schedule.hoursKnown && known(schedule.sleep) ? writer.at(minute) : relativeTimes.sleep,
    title: 'Wind down and recover',
    narrative: `${homeFromShift}${keep}${bedtime} is where habits consolidate, so you end the day on purpose.`,
    sparkToCapture: 'Your day’s best moment, captured before bed.',
    habitSlots: ['windDown'],
  };
}

function dayOffMoment(writer: MomentWriter): Moment | null {
  const { schedule } = writer.context;
  const daysOff = schedule.daysOff;
  if (!daysOff) return null;
  const phrase = clientPhrase(daysOff.phrase, 8);
  const described = /a week|per week/i.test(daysOff.phrase)
    ? `You work ${daysOff.phrase}; the other days are yours.`
    : `Your days off, as you put it: ${phrase ? shown(phrase) : 'described in your answers'}.`;
  const wake = daysOff.wake !== undefined ? ` You sleep until ${writer.at(daysOff.wake)} on those days: that is rest, and it counts.` : '';
  const rhythm =
    schedule.workPattern === 'night-shift'
      ? ' You keep your wake-up close to your working days, so the switch back costs you nothing.'
      : ' You keep one anchor from your working days, so Monday does not start from zero.';
  return {
    role: 'dayOff',
    minute: null,
    time: relativeTimes.daysOff,
    title: 'Your days off',
    narrative: `${described}${wake}${rhythm}`,
    sparkToCapture: 'A photo from your day off.',
    habitSlots: [],
  };
}

/** Moments too close to a more important one move by half an hour or so, or go when they cannot. */
function spaceOut(moments: Moment[], context: DayPlanContext): Moment[] {
  const kept: Moment[] = [];
  for (const moment of [...moments].sort((a, b) => importance.indexOf(a.role) - importance.indexOf(b.role))) {
    const clashes = (minute: number) => kept.some((other) => other.minute !== null && clockDistance(other.minute, minute) < CROWDED);
    if (moment.minute === null || !clashes(moment.minute)) {
      kept.push(moment);
      continue;
    }
    const from = moment.minute;
    const moved = nudges.map((nudge) => onClock(from + nudge)).find((minute) => !clashes(minute) && !isAsleep(context.schedule, minute));
    if (moved === undefined) continue;
    // A moment named by its place in the day ("Before you sleep") keeps its name; a clock time moves.
    const relative = Object.values(relativeTimes).some((label) => label === moment.time);
    kept.push({ ...moment, minute: moved, time: relative ? moment.time : formatClock(moved, context.schedule.clock) });
  }
  return kept;
}

/** Where a moment sits in the client's own day; moments with no hour take their place in its usual order. */
function dayPosition(moment: Moment, context: DayPlanContext): number {
  if (moment.role === 'dayOff') return Number.MAX_SAFE_INTEGER;
  if (moment.minute !== null) return sinceWaking(context.schedule, moment.minute);
  const share: Record<MomentRole, number> = { wake: 0, work: 0.2, movement: 0.4, challenge: 0.5, evening: 0.7, windDown: 0.95, dayOff: 1 };
  return wakingSpan(context.schedule) * share[moment.role];
}

/** The moments of this client's day, in the order they live them. */
export function dayMoments(writer: MomentWriter): Moment[] {
  const candidates = [
    wakeMoment(writer),
    workMoment(writer),
    movementMoment(writer),
    challengeMoment(writer),
    eveningMoment(writer),
    windDownMoment(writer),
    dayOffMoment(writer),
  ];
  const moments = spaceOut(
    candidates.filter((moment): moment is Moment => moment !== null),
    writer.context,
  );
  return moments.sort((a, b) => dayPosition(a, writer.context) - dayPosition(b, writer.context));
}
