import { ApiError } from '../../api/client';
import { requestDitl } from '../onboarding/api/onboarding-api';
import { fetchCurrentDitl } from './api/coach-ditl-api';
import { type PendingDitlRequest, settleDitlRequest } from './pending-ditl-request';

/** `waiting`: kept for another try; `answered` and `refused` are final, and the request is no longer kept. */
export type DitlRequestOutcome = 'answered' | 'waiting' | 'refused';

/**
 * What may pass when asked again: the network, an outage (5xx, 408), or a session that is not the owner's now (401),
 * since sign-out and a refused session remove the request anyway. A 429 is the daily limit, which another try
 * only spends; any other 4xx is the server's last word.
 */
export const mayPassLater = (error: unknown): boolean =>
  error instanceof ApiError && (error.status === 0 || error.status === 401 || error.status === 408 || error.status >= 500);

/** The generation an earlier try of `request` started, when the server took it but its answer was lost on the way. */
async function generationSince(request: PendingDitlRequest): Promise<string | null> {
  const { latest } = await fetchCurrentDitl({ asUser: request.userId });
  return latest && Date.parse(latest.createdAt) >= Date.parse(request.onboardingCompletedAt) ? latest.generationId : null;
}

async function generationFor(request: PendingDitlRequest, askFirst: boolean): Promise<string> {
  const taken = askFirst ? await generationSince(request) : null;
  if (taken) return taken;
  try {
    return (await requestDitl(request.answers, { asUser: request.userId })).generationId;
  } catch (error) {
    // The database keeps one unfinished generation per client: a conflict is one that a lost try started.
    const started = error instanceof ApiError && error.status === 409 ? await generationSince(request) : null;
    if (started) return started;
    throw error;
  }
}

async function settle(request: PendingDitlRequest, askFirst: boolean): Promise<DitlRequestOutcome> {
  try {
    settleDitlRequest(request.userId, await generationFor(request, askFirst));
    return 'answered';
  } catch (error) {
    if (mayPassLater(error)) return 'waiting';
    settleDitlRequest(request.userId, null);
    return 'refused';
  }
}

// The welcome page and the home may both be trying: one try at a time, so one request is never sent twice at once.
let sending: Promise<DitlRequestOutcome> | null = null;

/**
 * Sends the kept `request`. `askFirst` for every try after the first: the server may have started a generation for
 * an earlier one whose answer never arrived, and that one is this request's.
 */
export function sendDitlRequest(request: PendingDitlRequest, { askFirst }: { askFirst: boolean }): Promise<DitlRequestOutcome> {
  sending ??= settle(request, askFirst).finally(() => {
    sending = null;
  });
  return sending;
}
