import type { DitlGenerationSummary } from '@spark/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Card } from '../../../ui/card';
import { coachDitlKeys, fetchCurrentDitl } from '../../ditl/api/coach-ditl-api';
import { ditlTiming } from '../../ditl/ditl-timing';

const running = (latest: DitlGenerationSummary | null | undefined) => latest?.status === 'queued' || latest?.status === 'generating';

/** Reopens the client's newest finished Day in the Life on /ditl-welcome; nothing until one exists. */
export function YourDitlCard() {
  const [{ pollIntervalMs }] = useState(ditlTiming);
  const current = useQuery({
    queryKey: coachDitlKeys.current,
    queryFn: () => fetchCurrentDitl(),
    staleTime: 60_000,
    // A generation under way (the server ends each within minutes): the card appears once it is done.
    refetchInterval: (query) => (running(query.state.data?.latest) ? pollIntervalMs : false),
  });
  const generation = current.data?.generation;
  if (!generation) return null;
  return (
    <Link
      to={`/ditl-welcome?generationId=${encodeURIComponent(generation.generationId)}`}
      className="block rounded-2xl focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-spark-500"
    >
      <Card className="flex items-center justify-between gap-4 p-5 transition-shadow hover:shadow-lg" data-testid="your-ditl">
        <div>
          <p className="text-xs font-semibold tracking-wide text-spark-600 uppercase">Your plan</p>
          <p className="mt-1 text-lg font-semibold text-ink-950">Your Day in the Life</p>
          <p className="mt-1 text-sm text-slate-600">Your day, moment by moment, with the habits you and your coach chose.</p>
        </div>
        <svg aria-hidden="true" viewBox="0 0 24 24" className="size-6 shrink-0 text-ink-700">
          <path fill="currentColor" d="M9.3 5.3a1 1 0 0 1 1.4 0l6 6a1 1 0 0 1 0 1.4l-6 6a1 1 0 1 1-1.4-1.4l5.3-5.3-5.3-5.3a1 1 0 0 1 0-1.4Z" />
        </svg>
      </Card>
    </Link>
  );
}
