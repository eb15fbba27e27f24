import type { DitlPlan } from '@spark/contracts';
import { eventually } from '@spark/testing';
import { createSignedInUser, requestGeneration } from './ditl-auth';
import { correctedNursePlan, nurseAnswers } from './ditl-recorded-model';
import { type DitlWorkerStack, startDitlWorkerStack } from './ditl-worker-stack';

/** A first answer that breaks the rules with the client's own words: her typical day pasted, her challenge left out. */
const planQuotingHerDay: DitlPlan = {
  ...correctedNursePlan,
  slides: correctedNursePlan.slides
    .filter((slide) => slide.moment !== 'challenge')
    .map((slide, index) => (index === 0 ? { ...slide, narrative: `${nurseAnswers.typicalDay} So you wake at 3:00 PM.` } : slide)),
};

// Account erasure reaches the database and S3, not the log collector: what the worker writes there must not be the client's.
describe("the DITL worker's log", () => {
  let ditl: DitlWorkerStack;

  beforeAll(async () => {
    ditl = await startDitlWorkerStack();
  });
  afterAll(async () => {
    await ditl.stop();
  });

  it('names the plan checks a rejected answer broke, never the words of the client they quote', async () => {
    const { stack, model, db } = ditl;
    const { logLines } = ditl.startLoggingWorker();
    model.replies.push(planQuotingHerDay, correctedNursePlan);
    const client = await createSignedInUser(db, 'dana-logs@example.com');
    const generationId = await requestGeneration(stack.baseUrl, client.token, nurseAnswers);

    const generated = await eventually(
      () =>
        logLines
          .map((line) => JSON.parse(line) as Record<string, unknown>)
          .find((entry) => entry.msg === 'DITL generated' && entry.generationId === generationId),
      60_000,
      "the worker's 'DITL generated' line",
    );
    expect(model.calls).toHaveLength(2);
    // The broken checks' messages quote her typical day (pasted, and in the first person) and her challenge's time.
    const log = logLines.join('\n').toLowerCase();
    for (const herWords of ['i sleep from 9 am to 3 pm', 'three nights a week', 'at 3 am', 'dana-logs@example.com']) expect(log).not.toContain(herWords);
    expect(generated).toMatchObject({ planner: 'openai', rejectedChecks: expect.arrayContaining(['secondPerson', 'challengeTimed']) });
  }, 90_000);
});
