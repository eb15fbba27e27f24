import type { OnboardingAnswersInput } from '@spark/contracts';
import { registerAccessTokenSource } from '../../../api/client';
import { finishOnboardingAndAskForDitl } from './use-finish-onboarding';
import { installMemoryLocalStorage } from '../../../lib/memory-local-storage.testing';

const userId = '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a';
const answers = { firstName: 'Maya', transformationGoal: 'Run a half marathon by June' } as OnboardingAnswersInput;
const completedAt = '2026-12-01T12:00:00.000Z';

const stored = installMemoryLocalStorage();
registerAccessTokenSource({ accessToken: async () => 'token', renewAfterUnauthorized: async () => null });

/** The gateway: onboarding saved, then generate-ditl answered with `ditlStatus`. */
function serve(ditlStatus: number) {
  globalThis.fetch = async (input: string | URL | Request) => {
    const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    if (String(input) === '/api/onboarding') return json(200, { onboardingCompletedAt: completedAt });
    return ditlStatus === 202
      ? json(202, { generationId: '0e2d9c7a-8c3f-4d1e-9a6b-2f4e5d6c7b8a' })
      : json(ditlStatus, { statusCode: ditlStatus, code: 'SERVICE_UNAVAILABLE', message: 'ditl-service did not answer' });
  };
}

describe('finishing onboarding', () => {
  const realFetch = globalThis.fetch;
  beforeEach(() => stored.clear());
  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  it('keeps a DITL request the server could not take (503), with its owner and answers, for another try', async () => {
    serve(503);
    await finishOnboardingAndAskForDitl(userId, answers);
    expect(JSON.parse(stored.get('spark_ditl_request_pending') ?? 'null')).toEqual({ userId, answers, onboardingCompletedAt: completedAt });
    expect(stored.get('spark_onboarding_complete')).toBe('true');
  });

  it('keeps nothing once the server has taken the request', async () => {
    serve(202);
    await finishOnboardingAndAskForDitl(userId, answers);
    expect(stored.has('spark_ditl_request_pending')).toBe(false);
    expect(stored.get('spark_ditl_generation_id')).toBe('0e2d9c7a-8c3f-4d1e-9a6b-2f4e5d6c7b8a');
  });
});
