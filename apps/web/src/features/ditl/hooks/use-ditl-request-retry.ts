import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { coachDitlKeys } from '../api/coach-ditl-api';
import { ditlTiming } from '../ditl-timing';
import { pendingDitlRequestOf } from '../pending-ditl-request';
import { type DitlRequestOutcome, sendDitlRequest } from '../send-ditl-request';

// The home's back-off doubles up to the longest wait, and starts again from the first when the browser is back online.
const FIRST_RETRY_MS = 2_000;
const MAX_RETRY_MS = 60_000;

const tryOnce = (userId: string): Promise<DitlRequestOutcome> => {
  const request = pendingDitlRequestOf(userId);
  return request ? sendDitlRequest(request) : Promise.resolve('refused');
};

/**
 * /ditl-welcome: while `userId`'s DITL request waits, it is sent again at the page's poll interval until the page's
 * overall timeout. True while it waits, which the page shows as generating.
 */
export function useDitlRequestRetry(userId: string): boolean {
  const [{ pollIntervalMs, timeoutMs }] = useState(ditlTiming);
  const [waiting, setWaiting] = useState(() => pendingDitlRequestOf(userId) !== null);

  useEffect(() => {
    if (!waiting) return;
    const giveUpAt = Date.now() + timeoutMs;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let left = false;
    const attempt = async () => {
      const outcome = await tryOnce(userId);
      if (left) return;
      if (outcome !== 'waiting') setWaiting(false);
      else if (Date.now() + pollIntervalMs < giveUpAt) timer = setTimeout(() => void attempt(), pollIntervalMs);
    };
    void attempt();
    return () => {
      left = true;
      clearTimeout(timer);
    };
  }, [userId, waiting, pollIntervalMs, timeoutMs]);

  return waiting;
}

/**
 * The client home: sends `userId`'s waiting DITL request when it opens and when the browser is back online, with a
 * back-off between, so the presentation is e-mailed and its card appears without the client doing anything.
 */
export function useDitlRequestInBackground(userId: string): void {
  const queryClient = useQueryClient();

  useEffect(() => {
    if (!pendingDitlRequestOf(userId)) return;
    let delayMs = FIRST_RETRY_MS;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let trying = false;
    let left = false;
    const attempt = async () => {
      if (trying) return;
      trying = true;
      clearTimeout(timer);
      const outcome = await tryOnce(userId);
      trying = false;
      if (left) return;
      // The card asks which generation is the newest, and follows it until it is done.
      if (outcome === 'answered') void queryClient.invalidateQueries({ queryKey: coachDitlKeys.current });
      if (outcome !== 'waiting') return;
      timer = setTimeout(() => void attempt(), delayMs);
      delayMs = Math.min(delayMs * 2, MAX_RETRY_MS);
    };
    const backOnline = () => {
      delayMs = FIRST_RETRY_MS;
      void attempt();
    };
    void attempt();
    window.addEventListener('online', backOnline);
    return () => {
      left = true;
      clearTimeout(timer);
      window.removeEventListener('online', backOnline);
    };
  }, [userId, queryClient]);
}
