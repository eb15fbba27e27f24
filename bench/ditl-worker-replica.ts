// One DITL worker replica for bench/ditl-queue.ts (forked by it): the real worker process with the
// model call replaced by a fixed delay (BENCH_MODEL_MS), so the figures measure the queue, not a model.
import type { OnboardingAnswers } from '@spark/contracts';
import { buildOfflinePlan, type DitlPlanner, planContext } from '../apps/ditl-service/src/tooling';
import { startDitlWorkerProcess } from '../apps/ditl-service/src/worker-main';

const modelMs = Number(process.env.BENCH_MODEL_MS ?? 2000);
const simulatedModel: DitlPlanner = {
  async plan(answers: OnboardingAnswers, evolutionDays: number) {
    await new Promise((resolve) => setTimeout(resolve, modelMs));
    return { plan: buildOfflinePlan(planContext(answers, evolutionDays)), planner: 'offline' };
  },
};

void startDitlWorkerProcess(process.env, simulatedModel).then((stop) => {
  process.send?.('ready');
  process.once('SIGTERM', () => void stop().then(() => process.exit(0)));
});
