import type { OnboardingAnswersInput } from '@spark/contracts';
import { useMutation } from '@tanstack/react-query';
import { removeStored, storageKeys, writeStored } from '../../../lib/storage-keys';
import { keepNewDitlRequest } from '../../ditl/pending-ditl-request';
import { sendDitlRequest } from '../../ditl/send-ditl-request';
import { finishOnboarding } from '../api/onboarding-api';
import { clearDraft } from '../onboarding-draft';

/**
 * Saves the answers (progress, evolution and user metadata, in one gateway call), then asks for the DITL. Only the
 * first step can fail: a DITL request the server could not take is kept on the device and sent again from
 * /ditl-welcome and the home, so every client gets the presentation without asking twice.
 */
export async function finishOnboardingAndAskForDitl(userId: string, answers: OnboardingAnswersInput): Promise<void> {
  await finishOnboarding(answers);
  writeStored(storageKeys.onboardingComplete, 'true');
  writeStored(storageKeys.userGoal, answers.transformationGoal);
  clearDraft();
  removeStored(storageKeys.ditlGenerationId);
  await sendDitlRequest(keepNewDitlRequest(userId, answers));
}

export function useFinishOnboarding(userId: string) {
  return useMutation({ mutationFn: (answers: OnboardingAnswersInput) => finishOnboardingAndAskForDitl(userId, answers) });
}
