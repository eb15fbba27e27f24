import type { OnboardingAnswersInput } from '@spark/contracts';
import { registerAccessTokenSource } from '../../../api/client';
import { finishOnboardingAndAskForDitl } from './use-finish-onboarding';
import { installMemoryLocalStorage } from '../../../lib/memory-local-storage.testing';

const userId = '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a';
const answers = { firstName: 'Maya', transformationGoal: 'Run a half marathon by June' } as OnboardingAnswersInput;
const completedAt = '2026-12-01T12:00:00.000Z';

const stored = installMemoryLocalStorage();
registerAccessTokenSource({ accessToken: async () => 'token', renewAfterUnauthorized: async () => null });

/** The gateway: onboarding saved, then generate-ditl answered with `ditlStatus`; the bodies of the DITL requests it got. */
function serve(ditlStatus: number): unknown[] {
  const ditlBodies: unknown[] = [];
  globalThis.fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    if (String(input) === '/api/onboarding') return json(200, { onboardingCompletedAt: completedAt });
    ditlBodies.push(JSON.parse(String(init?.body)));
    return ditlStatus === 202
      ? json(202, { generationId: '0e2d9c7a-8c3f-4d1e-9a6b-2f4e5d6c7b8a' })
      : json(ditlStatus, { statusCode: ditlStatus, code: 'SERVICE_UNAVAILABLE', message: 'ditl-service did not answer' });
  };
  return ditlBodies;
}

describe('finishing onboarding', () => {
  const realFetch = globalThis.fetch;
  beforeEach(() => stored.clear());
  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  it('keeps a DITL request the server could not take (503), with its owner, answers and the id its first try carried, for another try', async () => {
    const ditlBodies = serve(503);
    await finishOnboardingAndAskForDitl(userId, answers);
    const kept = JSON.parse(stored.get('spark_ditl_request_pending') ?? 'null') as { requestId: string };
    expect(kept).toEqual({ userId, answers, requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(ditlBodies).toEqual([{ onboardingData: answers, requestId: kept.requestId }]);
    expect(stored.get('spark_onboarding_complete')).toBe('true');
  });

  it('keeps nothing once the server has taken the request', async () => {
    serve(202);
    await finishOnboardingAndAskForDitl(userId, answers);
    expect(stored.has('spark_ditl_request_pending')).toBe(false);
    expect(stored.get('spark_ditl_generation_id')).toBe('0e2d9c7a-8c3f-4d1e-9a6b-2f4e5d6c7b8a');
  });
});
