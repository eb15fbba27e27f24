import { addDays, cycleLengthDays, DEFAULT_EVOLUTION_DAYS, NOT_SPECIFIED, type OnboardingAnswers, type OnboardingData } from '@spark/contracts';

const orNotSpecified = (value: string | undefined) => (value && value.trim() ? value.trim() : NOT_SPECIFIED);

// A stated stress tag or a challenge that names stress is the only signal the steps give for it.
const stressLevelOf = (answers: OnboardingAnswers): 'high' | 'moderate' =>
  answers.goalTags.includes('Stress') || /stress|overwhelm|anxious|burn/i.test(answers.biggestChallenge) ? 'high' : 'moderate';

/** The onboarding record of docs/product.md §3, with its defaults for everything the steps leave blank. */
export function toOnboardingRecord(userId: string, answers: OnboardingAnswers, completedAt: Date): OnboardingData {
  const fullName = [answers.firstName, answers.lastName].filter(Boolean).join(' ').trim();
  return {
    user_id: userId,
    full_name: fullName,
    transformation_goal: answers.transformationGoal,
    typical_day: answers.typicalDay,
    biggest_challenge: answers.biggestChallenge,
    current_win: answers.currentWin?.trim() ?? '',
    goal_tags: answers.goalTags,
    completed_at: completedAt.toISOString(),
    demographics: {
      age: answers.age,
      gender: answers.gender ?? NOT_SPECIFIED,
      activity_level: answers.activityLevel,
      occupation: orNotSpecified(answers.occupation),
      family_status: answers.familyStatus ?? NOT_SPECIFIED,
    },
    goalQuestions: {
      primary_goal: answers.transformationGoal,
      motivation: orNotSpecified(answers.currentWin),
      biggest_challenge: answers.biggestChallenge,
      // The client's own answers never set the length: a coach does, for a client they added (evolution presets).
      timeline: `${DEFAULT_EVOLUTION_DAYS} days`,
      support_system: 'coach',
    },
    lifestyle: {
      typical_day: answers.typicalDay,
      work_schedule: orNotSpecified(answers.occupation),
      stress_level: stressLevelOf(answers),
      stress_sources: answers.biggestChallenge,
      current_routine: answers.typicalDay,
    },
    habits: {
      current_habits: orNotSpecified(answers.currentWin),
      habit_preferences: answers.goalTags.length ? answers.goalTags.join(', ') : NOT_SPECIFIED,
      tracking_preference: 'photos',
      accountability_preference: 'coach_support',
    },
  };
}

/** The first evolution: starts on `today` (a YYYY-MM-DD date) and lasts the custom days or 90. */
export function firstEvolution(today: string, customDays?: number): { startDate: string; endDate: string } {
  return { startDate: today, endDate: addDays(today, cycleLengthDays(customDays)) };
}
