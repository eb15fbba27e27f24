// `node dist/bench/ditl-planner.js` (after `npm run build:node`): the offline planner, from answers
// to the finished, escaped HTML page. Target (issue 6): a presentation in ≤ 200 ms.
import { onboardingAnswersSchema } from '@spark/contracts';
import { buildOfflinePlan } from '../apps/ditl-service/src/planner/offline-planner';
import { renderPresentation } from '../apps/ditl-service/src/planner/presentation-html';

const runs = Number(process.env.BENCH_RUNS ?? 2000);
const answers = onboardingAnswersSchema.parse({
  firstName: 'Maya',
  lastName: 'Lopez',
  transformationGoal: 'Run a half marathon by June without burning out. I want energy for my kids too.',
  goalTags: ['Fitness', 'Sleep', 'Nutrition'],
  age: 34,
  activityLevel: 'lightly_active',
  occupation: 'Nurse',
  familyStatus: 'parent',
  typicalDay: 'Early shifts at the hospital, school run, dinner, kids to bed, then scrolling until late.',
  biggestChallenge: 'Stress after long shifts and late-night screens',
  currentWin: 'I walk the dog every morning',
});

const timings: number[] = [];
let bytes = 0;
for (let run = 0; run < runs; run++) {
  const started = performance.now();
  const html = renderPresentation(buildOfflinePlan(answers), 'offline', new Date());
  timings.push(performance.now() - started);
  bytes = html.length;
}
timings.sort((a, b) => a - b);
const at = (quantile: number) => timings[Math.min(timings.length - 1, Math.floor(quantile * timings.length))] ?? 0;
const slowest = timings.at(-1) ?? 0;
process.stdout.write(
  `DITL offline planner: ${runs} presentations of ${bytes} bytes; p50 ${at(0.5).toFixed(3)} ms, p99 ${at(0.99).toFixed(3)} ms, ` +
    `slowest (incl. the cold first run) ${slowest.toFixed(3)} ms; target ≤ 200 ms: ${slowest <= 200 ? 'met' : 'MISSED'}\n`,
);
