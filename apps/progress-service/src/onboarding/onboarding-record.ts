import { addDays, cycleLengthDays, NOT_SPECIFIED, type OnboardingAnswers, type OnboardingData } from '@spark/contracts';

const orNotSpecified = (value: string | undefined) => (value && value.trim() ? value.trim() : NOT_SPECIFIED);

// A stated stress tag or a challenge that names stress is the only signal the steps give for it.
const stressLevelOf = (answers: OnboardingAnswers): 'high' | 'moderate' =>
  answers.goalTags.includes('Stress') || /stress|overwhelm|anxious|burn/i.test(answers.biggestChallenge) ? 'high' : 'moderate';

/** The client's full name as the answers give it: first and last name. */
export const fullNameOf = (answers: OnboardingAnswers) => [answers.firstName, answers.lastName].filter(Boolean).join(' ').trim();

/**
 * The onboarding record of docs/product.md §3, with its defaults for everything the steps leave blank. Its timeline is
 * `evolutionDays`, the length of the client's progress row: a coach sets it (a preset for a client they added, or an
 * edit), never the client's answers.
 */
export function toOnboardingRecord(userId: string, answers: OnboardingAnswers, completedAt: Date, evolutionDays: number): OnboardingData {
  return {
    user_id: userId,
    full_name: fullNameOf(answers),
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
      timeline: `${evolutionDays} days`,
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
