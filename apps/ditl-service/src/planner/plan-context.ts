import type { DaySchedule, OnboardingAnswers } from '@spark/contracts';
import { readDay } from '../schedule/read-day';

/** What every planner plans from and every plan is checked against: the answers and the day read from them. */
export interface DayPlanContext {
  answers: OnboardingAnswers;
  schedule: DaySchedule;
  /** The length of the client's evolution, which the plan states: their progress row's, never their answers'. */
  evolutionDays: number;
}

export const planContext = (answers: OnboardingAnswers, evolutionDays: number): DayPlanContext => ({
  answers,
  schedule: readDay(answers),
  evolutionDays,
});
