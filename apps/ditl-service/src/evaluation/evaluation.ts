import { DEFAULT_EVOLUTION_DAYS, type DitlPlan, onboardingAnswersSchema } from '@spark/contracts';
import { formatClock } from '../schedule/clock';
import { buildOfflinePlan } from '../planner/offline-planner';
import { type DayPlanContext, planContext } from '../planner/plan-context';
import { appliesTo, checkPlan, planChecks, planCheckTitles, type PlanCheck, type PlanViolation } from '../planner/plan-checks';
import { type EvaluationProfile, evaluationProfiles } from './profiles';

export type CheckOutcome = 'pass' | 'fail' | 'n/a';

export interface ProfileEvaluation {
  profile: EvaluationProfile;
  context: DayPlanContext;
  plan: DitlPlan;
  violations: PlanViolation[];
  outcomes: Record<PlanCheck, CheckOutcome>;
}

/** Plans one profile with the given planner and runs every check on the plan. */
export function evaluateProfile(profile: EvaluationProfile, plan: (context: DayPlanContext) => DitlPlan = buildOfflinePlan): ProfileEvaluation {
  const context = planContext(onboardingAnswersSchema.parse(profile.answers), DEFAULT_EVOLUTION_DAYS);
  const written = plan(context);
  const violations = checkPlan(written, context);
  const outcomes = Object.fromEntries(
    planChecks.map((check) => [check, !appliesTo(check, context) ? 'n/a' : violations.some((violation) => violation.check === check) ? 'fail' : 'pass']),
  ) as Record<PlanCheck, CheckOutcome>;
  return { profile, context, plan: written, violations, outcomes };
}

const mark: Record<CheckOutcome, string> = { pass: '✓', fail: '✗', 'n/a': '–' };

/** The profile × check table of docs/ditl.md, for the offline planner. */
export function evaluationTable(evaluations: ProfileEvaluation[] = evaluationProfiles.map((profile) => evaluateProfile(profile))): string {
  const header = ['profile', 'day as read', ...planChecks.map((check) => planCheckTitles[check])];
  const rows = evaluations.map(({ profile, context: { schedule }, outcomes }) => {
    const clock = (minute: number) => formatClock(minute, schedule.clock);
    const day = schedule.hoursKnown
      ? `awake ${schedule.wake.source === 'assumed' ? '?' : clock(schedule.wake.minute)}–${schedule.sleep.source === 'assumed' ? '?' : clock(schedule.sleep.minute)}${schedule.work ? `, work ${clock(schedule.work.start)}–${clock(schedule.work.end)}` : ''}${schedule.challenge ? `, challenge ${clock(schedule.challenge.minute)}` : ''}`
      : 'no hours given';
    return [`${profile.label} (\`${profile.id}\`)`, day, ...planChecks.map((check) => mark[outcomes[check]])];
  });
  return [header, header.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}
