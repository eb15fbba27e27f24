import type { DaySchedule, OnboardingAnswers } from '@spark/contracts';
import { readDay } from '../schedule/read-day';

/** What every planner plans from and every plan is checked against: the answers and the day read from them. */
export interface DayPlanContext {
  answers: OnboardingAnswers;
  schedule: DaySchedule;
}

export const planContext = (answers: OnboardingAnswers): DayPlanContext => ({ answers, schedule: readDay(answers) });
