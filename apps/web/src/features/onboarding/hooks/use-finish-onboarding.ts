import type { OnboardingAnswersInput } from '@spark/contracts';
import { useMutation } from '@tanstack/react-query';
import { removeStored, storageKeys, writeStored } from '../../../lib/storage-keys';
import { finishOnboarding, requestDitl } from '../api/onboarding-api';
import { clearDraft } from '../onboarding-draft';

/**
 * Saves the answers (progress, evolution and user metadata, in one gateway call), then asks for
 * the DITL. Only the first step can fail the mutation: a DITL request that fails never blocks.
 */
export function useFinishOnboarding() {
  return useMutation({
    mutationFn: async (answers: OnboardingAnswersInput) => {
      await finishOnboarding(answers);
      writeStored(storageKeys.onboardingComplete, 'true');
      writeStored(storageKeys.userGoal, answers.transformationGoal);
      clearDraft();
      removeStored(storageKeys.ditlGenerationId);
      const ditl = await requestDitl(answers).catch(() => null);
      if (ditl) writeStored(storageKeys.ditlGenerationId, ditl.generationId);
    },
  });
}
