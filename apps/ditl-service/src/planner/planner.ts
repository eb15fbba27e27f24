import type { DitlPlan, OnboardingAnswers } from '@spark/contracts';

export type PlannerName = 'openai' | 'offline';

export interface PlannedPresentation {
  plan: DitlPlan;
  planner: PlannerName;
}

/** Writes a client's "Day in the Life" plan from their onboarding answers. */
export interface DitlPlanner {
  plan(answers: OnboardingAnswers): Promise<PlannedPresentation>;
}
