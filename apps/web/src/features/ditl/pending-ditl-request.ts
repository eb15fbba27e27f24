import type { OnboardingAnswersInput } from '@spark/contracts';
import { readStored, removeStored, storageKeys, writeStored } from '../../lib/storage-keys';

/** A DITL request the server has not answered yet: whose it is, their answers, and when their onboarding finished. */
export interface PendingDitlRequest {
  userId: string;
  answers: OnboardingAnswersInput;
  /** The server's time: a generation created since then is this request's, whichever of its tries reached the server. */
  onboardingCompletedAt: string;
}

export const keepDitlRequest = (request: PendingDitlRequest) => writeStored(storageKeys.ditlRequestPending, JSON.stringify(request));

/**
 * `userId`'s waiting request. One kept by someone else on this browser (who left without signing out) is not theirs to
 * send: it would go out under the wrong session, with the other person's answers.
 */
export function pendingDitlRequestOf(userId: string): PendingDitlRequest | null {
  try {
    const saved = JSON.parse(readStored(storageKeys.ditlRequestPending) ?? 'null') as Partial<PendingDitlRequest> | null;
    if (saved?.userId !== userId || typeof saved.onboardingCompletedAt !== 'string' || typeof saved.answers !== 'object') return null;
    return saved as PendingDitlRequest;
  } catch {
    return null;
  }
}

/** Ends `userId`'s waiting request, answered (with its generation) or refused; another person's stays theirs. */
export function settleDitlRequest(userId: string, generationId: string | null): void {
  if (!pendingDitlRequestOf(userId)) return;
  if (generationId) writeStored(storageKeys.ditlGenerationId, generationId);
  removeStored(storageKeys.ditlRequestPending);
}
