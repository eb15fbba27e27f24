import type { OnboardingAnswersInput } from '@spark/contracts';
import { readStored, removeStored, storageKeys, writeStored } from '../../lib/storage-keys';

/** A DITL request the server has not answered yet: whose it is, their answers, and the id every try of it carries. */
export interface PendingDitlRequest {
  userId: string;
  answers: OnboardingAnswersInput;
  /** Chosen on the device once: the server answers every try with this id with the one generation it made for it. */
  requestId: string;
}

const keep = (request: PendingDitlRequest) => writeStored(storageKeys.ditlRequestPending, JSON.stringify(request));

/** Keeps `userId`'s new request, with its id, before its first try. */
export function keepNewDitlRequest(userId: string, answers: OnboardingAnswersInput): PendingDitlRequest {
  const request = { userId, answers, requestId: crypto.randomUUID() };
  keep(request);
  return request;
}

/**
 * `userId`'s waiting request. One kept by someone else on this browser (who left without signing out) is not theirs to
 * send: it would go out under the wrong session, with the other person's answers. One kept by the previous release has
 * no id: it gets one now, kept with it, so each of its later tries carries the same.
 */
export function pendingDitlRequestOf(userId: string): PendingDitlRequest | null {
  try {
    const saved = JSON.parse(readStored(storageKeys.ditlRequestPending) ?? 'null') as Partial<PendingDitlRequest> | null;
    if (saved?.userId !== userId || typeof saved.answers !== 'object') return null;
    if (typeof saved.requestId === 'string') return saved as PendingDitlRequest;
    const request = { ...saved, userId, answers: saved.answers, requestId: crypto.randomUUID() };
    keep(request);
    return request;
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
