import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ApiError } from '../../../api/client';
import { ditlKeys, fetchDitlStatus, fetchPresentation } from '../api/ditl-api';
import { ditlTiming } from '../ditl-timing';

/** What /ditl-welcome shows: docs/product.md §4, generating → ready, or one of the error states. */
export type DitlView =
  | { state: 'generating'; progress: number | null }
  | { state: 'ready'; html: string }
  | { state: 'failed' }
  | { state: 'timed-out' }
  | { state: 'no-generation' };

// A generation that is not the reader's (or no longer exists) cannot recover by polling.
const isDefinite = (error: unknown) => error instanceof ApiError && (error.status === 403 || error.status === 404);

/**
 * Polls check-ditl-status at the page's interval until it finishes, giving up at its timeout (ditl-timing.ts). While
 * the request itself still waits to be taken (`requestWaiting`), the page shows it generating, and the timeout counts
 * from the page's opening.
 */
export function useDitlGeneration(generationId: string | null, requestWaiting = false): DitlView {
  const [{ pollIntervalMs, timeoutMs }] = useState(ditlTiming);
  const [timedOut, setTimedOut] = useState(false);
  const waiting = generationId !== null || requestWaiting;

  useEffect(() => {
    if (!waiting) return;
    const timer = setTimeout(() => setTimedOut(true), timeoutMs);
    return () => clearTimeout(timer);
  }, [waiting, timeoutMs]);

  const status = useQuery({
    queryKey: ditlKeys.status(generationId ?? ''),
    queryFn: () => fetchDitlStatus(generationId ?? ''),
    enabled: generationId !== null && !timedOut,
    retry: false,
    refetchInterval: (query) => {
      const current = query.state.data?.status;
      return current === 'completed' || current === 'failed' || isDefinite(query.state.error) ? false : pollIntervalMs;
    },
  });
  const presentationUrl = status.data?.status === 'completed' ? status.data.presentationUrl : null;
  const presentation = useQuery({
    queryKey: ditlKeys.presentation(generationId ?? ''),
    queryFn: () => fetchPresentation(presentationUrl ?? ''),
    enabled: presentationUrl !== null,
    staleTime: Infinity,
  });

  if (!generationId) return requestWaiting ? (timedOut ? { state: 'timed-out' } : { state: 'generating', progress: null }) : { state: 'no-generation' };
  if (presentation.data) return { state: 'ready', html: presentation.data.html };
  if (status.data?.status === 'failed' || isDefinite(status.error) || presentation.isError) return { state: 'failed' };
  if (timedOut && !presentationUrl) return { state: 'timed-out' };
  return { state: 'generating', progress: status.data?.progress ?? null };
}
