// `npm run build:node && node dist/bench/ditl-planner.js`: the offline planner for every evaluation profile,
// from the answers to the finished, escaped HTML page: reading the day (chrono-node), planning, rendering.
// The plan checks a model's answer goes through are timed on their own. Target: well under 200 ms a plan.
import { DEFAULT_EVOLUTION_DAYS, onboardingAnswersSchema } from '@spark/contracts';
import { buildOfflinePlan, checkPlan, evaluationProfiles, planContext, renderPresentation, warmUpOfflinePlanner } from '../apps/ditl-service/src/tooling';
import { recordFigure } from './summary';

const rounds = Number(process.env.BENCH_ROUNDS ?? 200);
const profiles = evaluationProfiles.map((profile) => ({ id: profile.id, answers: onboardingAnswersSchema.parse(profile.answers) }));

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
const summary = (timings: number[]) => {
  const sorted = [...timings].sort((a, b) => a - b);
  return { p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), slowest: sorted.at(-1) ?? 0 };
};
const ms = (value: number) => `${value.toFixed(3)} ms`;

const planTimings: number[] = [];
const checkTimings: number[] = [];
const perProfile = new Map<string, number[]>();
// What a worker does once at start, then the first client's plan after it.
const warmUpStarted = performance.now();
warmUpOfflinePlanner();
const warmUpMs = performance.now() - warmUpStarted;
const firstStarted = performance.now();
const [firstProfile] = profiles;
if (firstProfile) renderPresentation(buildOfflinePlan(planContext(firstProfile.answers, DEFAULT_EVOLUTION_DAYS)), 'offline', new Date());
const firstMs = performance.now() - firstStarted;

for (let round = 0; round < rounds; round++) {
  for (const { id, answers } of profiles) {
    const started = performance.now();
    const context = planContext(answers, DEFAULT_EVOLUTION_DAYS);
    const plan = buildOfflinePlan(context);
    renderPresentation(plan, 'offline', new Date());
    const planned = performance.now();
    checkPlan(plan, context);
    checkTimings.push(performance.now() - planned);
    planTimings.push(planned - started);
    perProfile.set(id, [...(perProfile.get(id) ?? []), planned - started]);
  }
}

const plans = summary(planTimings);
const checks = summary(checkTimings);
const lines = [
  `DITL offline planner: ${profiles.length} profiles × ${rounds} rounds = ${planTimings.length} presentations (answers → schedule → plan → HTML)`,
  `  worker start-up warm-up (once per process): ${ms(warmUpMs)}; the first client's plan after it: ${ms(firstMs)}`,
  `  per plan: p50 ${ms(plans.p50)}, p99 ${ms(plans.p99)}, slowest ${ms(plans.slowest)}; target well under 200 ms: ${plans.p99 < 200 ? 'met' : 'MISSED'}`,
  `  plan checks on a plan: p50 ${ms(checks.p50)}, p99 ${ms(checks.p99)}`,
  ...[...perProfile].map(([id, timings]) => `  ${id.padEnd(16)} p50 ${ms(summary(timings).p50)}, p99 ${ms(summary(timings).p99)}`),
];
process.stdout.write(`${lines.join('\n')}\n`);
recordFigure({ measure: 'DITL offline planner, per plan', figure: `p99 ${ms(plans.p99)}`, target: '< 200 ms', met: plans.p99 < 200 });
