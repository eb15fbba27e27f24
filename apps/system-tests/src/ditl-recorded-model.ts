import type { DitlPlan, OnboardingAnswersInput } from '@spark/contracts';
import { evaluationProfiles } from '../../ditl-service/src/tooling';

/**
 * Recorded model answers for the fake model (ditl-fake-model.ts), each beside the answers it was
 * written for: the plan checks judge a plan against the client's own day.
 */

function profileAnswers(id: string): OnboardingAnswersInput {
  const profile = evaluationProfiles.find((candidate) => candidate.id === id);
  if (!profile) throw new Error(`no evaluation profile ${id}`);
  return profile.answers;
}

/** A client whose typical day names no hours: a good plan uses no clock times. */
export const mayaAnswers: OnboardingAnswersInput = {
  firstName: 'Maya <b>',
  transformationGoal: 'Run a half marathon by June',
  goalTags: ['Fitness', 'Sleep'],
  age: 34,
  activityLevel: 'lightly_active',
  typicalDay: 'Office job, two kids, commute by train.',
  biggestChallenge: 'Too tired after work',
  timeZone: 'Europe/Paris',
};

const weeklyRhythm = {
  sundayAlignment: 'Plan three actions for your week.',
  fridayCheckIn: 'Review the week with your coach.',
  rest: 'Saturday is your rest day.',
};

export const validPlan: DitlPlan = {
  title: 'A day built for you',
  subtitle: 'From the model',
  slides: [
    {
      moment: 'wake',
      time: 'When you wake',
      title: 'Moment 1 <script>alert(1)</script>',
      narrative: 'You start the day thinking of your half marathon.',
      habit: 'A glass of water and daylight within 15 minutes of waking.',
      sparkToCapture: 'A photo of your glass.',
    },
    {
      moment: 'movement',
      time: 'Your first break',
      title: 'Moment 2',
      narrative: 'You take a brisk walk on your break.',
      habit: 'A brisk 20-minute walk.',
      sparkToCapture: 'Your shoes.',
    },
    {
      moment: 'challenge',
      time: 'After work',
      title: 'Moment 3',
      narrative: 'You are tired after work, so you planned a short reset.',
      habit: 'A five-minute reset: shoes off, breathe, then decide.',
      sparkToCapture: 'A note.',
    },
    {
      moment: 'evening',
      time: 'Your main meal',
      title: 'Moment 4',
      narrative: 'You eat with the kids and talk about your day.',
      habit: 'Fill half your plate with vegetables.',
      sparkToCapture: 'Your plate.',
    },
    {
      moment: 'windDown',
      time: 'Before you sleep',
      title: 'Moment 5',
      narrative: 'You wind down without screens.',
      habit: 'Screens off 45 minutes before bed.',
      sparkToCapture: 'Your book.',
    },
  ],
  weeklyRhythm,
  closing: 'Maya <b>, one day at a time.',
};

/** A night-shift nurse: asleep 9 AM to 3 PM, on shift 7 PM to 7 AM, snacks at 3 AM (the planners' evaluation profile). */
export const nurseAnswers: OnboardingAnswersInput = profileAnswers('night-nurse');

export const correctedNursePlan: DitlPlan = {
  title: "Dana's working night",
  subtitle: 'Built around your shifts',
  slides: [
    {
      moment: 'wake',
      time: '3:00 PM',
      title: 'Your morning',
      narrative: 'You wake at 3:00 PM and spend two minutes on why you want to stop relying on sugar.',
      habit: 'A glass of water and daylight within 15 minutes of waking.',
      sparkToCapture: 'Your window, blinds open.',
    },
    {
      moment: 'movement',
      time: '5:00 PM',
      title: 'Daylight walk',
      narrative: 'You walk for 20 minutes in daylight with your partner before your shift.',
      habit: 'A brisk 20-minute walk outside.',
      sparkToCapture: 'The sky on your walk.',
    },
    {
      moment: 'work',
      time: '6:30 PM',
      title: 'Pack your night',
      narrative: 'You pack a protein snack for 3 AM, so the vending machine is not the plan.',
      habit: 'Pack a protein-first meal and one planned snack.',
      sparkToCapture: 'Your packed bag.',
    },
    {
      moment: 'challenge',
      time: '3:00 AM',
      title: 'The vending machine',
      narrative: 'At 3:00 AM on shift the vending-machine snacks call; you eat the snack you packed instead.',
      habit: 'Eat your packed snack sitting down, away from the machine.',
      sparkToCapture: 'Your snack.',
    },
    {
      moment: 'windDown',
      time: '8:15 AM',
      title: 'Wind down',
      narrative: 'You drive home with sunglasses on; you already drink plenty of water at work, so you keep that going.',
      habit: 'Blackout blinds down and screens off 45 minutes before your 9:00 AM bedtime.',
      sparkToCapture: 'Your dark bedroom.',
    },
    {
      moment: 'dayOff',
      time: 'On your days off',
      title: 'Days off',
      narrative: 'On your days off you sleep at night but keep your wake-up close to your work days.',
      habit: 'One longer outing with people you like.',
      sparkToCapture: 'A photo from your day off.',
    },
  ],
  weeklyRhythm,
  closing: 'Dana, one night at a time.',
};

/** The same plan with a lunch walk at 12:30 PM, while she sleeps: the model's first answer breaks a rule. */
export const nursePlanWithLunchWhileAsleep: DitlPlan = {
  ...correctedNursePlan,
  slides: correctedNursePlan.slides.map((slide, index) => (index === 1 ? { ...slide, time: '12:30 PM', title: 'Lunch walk' } : slide)),
};
