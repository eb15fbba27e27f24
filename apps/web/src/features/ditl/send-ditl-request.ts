import { ApiError } from '../../api/client';
import { requestDitl } from '../onboarding/api/onboarding-api';
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

async function settle(request: PendingDitlRequest): Promise<DitlRequestOutcome> {
  try {
    const { generationId } = await requestDitl(request.answers, request.requestId, { asUser: request.userId });
    settleDitlRequest(request.userId, generationId);
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
 * Sends the kept `request`. Every try carries its id, so one whose answer was lost after the server took it is
 * answered again with the generation it started, whatever became of it, instead of starting another.
 */
export function sendDitlRequest(request: PendingDitlRequest): Promise<DitlRequestOutcome> {
  sending ??= settle(request).finally(() => {
    sending = null;
  });
  return sending;
}
