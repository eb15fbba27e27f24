import type { DitlPlan, DitlPlannerName, OnboardingAnswers } from '@spark/contracts';
import type { PlanViolation } from './plan-checks';

export type PlannerName = DitlPlannerName;

export interface PlannedPresentation {
  plan: DitlPlan;
  planner: PlannerName;
  /** What the model's answers broke before this plan was kept (its revision, or the offline plan). */
  rejectedViolations?: PlanViolation[];
  /** The model's answer reached its length cap, so this is the offline plan. */
  modelAnswerCutOff?: true;
}

/** Writes a client's "Day in the Life" plan from their onboarding answers, for an evolution of `evolutionDays`. */
export interface DitlPlanner {
  plan(answers: OnboardingAnswers, evolutionDays: number): Promise<PlannedPresentation>;
}
