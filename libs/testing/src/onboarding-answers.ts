import type { OnboardingAnswers } from '@spark/contracts';

/**
 * Valid onboarding answers, as the onboarding form sends them, for a test that needs some. A test that asserts on
 * a value (a name, a goal it looks for in the output) passes it as an override, so the value stays in the test.
 */
export function onboardingAnswers(overrides: Partial<OnboardingAnswers> = {}): OnboardingAnswers {
  return {
    firstName: 'Ada',
    transformationGoal: 'Run a 10k',
    goalTags: [],
    age: 40,
    activityLevel: 'moderately_active',
    typicalDay: 'Office job, home by six.',
    biggestChallenge: 'Finding time',
    ...overrides,
  };
}
