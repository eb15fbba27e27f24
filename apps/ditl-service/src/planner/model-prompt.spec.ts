import { onboardingAnswersSchema } from '@spark/contracts';
import { evaluationProfile } from '../evaluation/profiles';
import { describeClient, systemPrompt } from './model-prompt';
import { planContext } from './plan-context';

describe('the model prompt', () => {
  it("sends the evolution's length beside the client's answers, never among them, and says what to do with it", () => {
    const answers = onboardingAnswersSchema.parse(evaluationProfile('early-runner').answers);
    const sent = JSON.parse(describeClient(planContext(answers, 60))) as { evolutionDays: unknown; client: Record<string, unknown> };
    expect(sent.evolutionDays).toBe(60);
    expect(sent.client).not.toHaveProperty('evolutionDays');
    expect(systemPrompt).toContain('whenever you say how long they repeat this day, say that many days');
  });
});
