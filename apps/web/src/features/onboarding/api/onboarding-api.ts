import type { FinishOnboardingResponse, GenerateDitlResponse, OnboardingAnswersInput } from '@spark/contracts';
import { apiRequest } from '../../../api/client';

export const finishOnboarding = (answers: OnboardingAnswersInput) => apiRequest<FinishOnboardingResponse>('POST', '/onboarding', answers);

/** generate-ditl (docs/product.md §7); the caller ignores a failure (the presentation also arrives by e-mail). */
export const requestDitl = (answers: OnboardingAnswersInput) => apiRequest<GenerateDitlResponse>('POST', '/ditl/generations', { onboardingData: answers });
