import type { FinishOnboardingResponse, GenerateDitlBody, GenerateDitlResponse, OnboardingAnswersInput } from '@spark/contracts';
import { apiRequest, type RequestOptions } from '../../../api/client';

export const finishOnboarding = (answers: OnboardingAnswersInput) => apiRequest<FinishOnboardingResponse>('POST', '/onboarding', answers);

/**
 * generate-ditl (docs/product.md §7); a failure never blocks the client (features/ditl/send-ditl-request.ts tries again
 * with the same `requestId`).
 */
export const requestDitl = (answers: OnboardingAnswersInput, requestId: string, options?: RequestOptions) =>
  apiRequest<GenerateDitlResponse>('POST', '/ditl/generations', { onboardingData: answers, requestId } satisfies GenerateDitlBody, options);
