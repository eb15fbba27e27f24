import type { ClientSummary, CoachingFacts, DraftWriter, WeeklyCheckIn } from '@spark/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { loadFailureMessage } from '../../../api/client';
import { useIdempotencyKey } from '../../../api/use-idempotency-key';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { fieldClasses } from '../../../ui/input';
import { ListFailed } from '../../../ui/list-states';
import { Spinner } from '../../../ui/spinner';
import { toast } from '../../../ui/toaster';
import { coachApi, coachKeys } from '../api/coach-api';
import { SparkThumbnail } from './spark-thumbnail';

const weekdayOf = (isoDate: string, style: 'short' | 'narrow' = 'short') =>
  new Date(`${isoDate}T12:00:00Z`).toLocaleDateString('en-US', { weekday: style, timeZone: 'UTC' });
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** The facts the draft was written from, so the coach sees what it rests on before editing it. */
function factChips(facts: CoachingFacts): string[] {
  const chips: string[] = [];
  if (facts.daysSinceLastSpark === null) chips.push(`No sparks yet · day ${facts.evolutionDay} of Evolution ${facts.evolutionNumber}`);
  else chips.push(facts.daysSinceLastSpark === 0 ? 'Sparked today' : `Last spark ${plural(facts.daysSinceLastSpark, 'day')} ago`);
  if (facts.endedStreak) chips.push(`${facts.endedStreak.days}-day streak ended ${weekdayOf(facts.endedStreak.to)}`);
  else if (facts.currentStreak) chips.push(`${facts.currentStreak}-day streak`);
  chips.push(`${plural(facts.sparksThisWeek, 'spark')} this week`);
  if (facts.pauseDays.length) chips.push(`Paused ${facts.pauseDays.map((day) => weekdayOf(day)).join(', ')}`);
  return chips;
}

const writerNote = (writer: DraftWriter) => (writer === 'openai' ? 'Drafted by the AI writer and checked against the facts.' : 'Drafted from the facts.');

/**
 * The draft in an editable box and the one click that sends it: the existing note route, pinned or not.
 * Nothing reaches the client before that click. Keyed by its draft, so a new draft starts a fresh box.
 */
function SendAsNote({ client, draft, label, onSent }: { client: ClientSummary; draft: string; label: string; onSent?: () => void }) {
  const queryClient = useQueryClient();
  const [message, setMessage] = useState(draft);
  const [pinned, setPinned] = useState(true);
  const noteKey = useIdempotencyKey('nudge');
  const send = useMutation({
    mutationFn: () => coachApi.sendNudge(client.userId, message.trim(), pinned, noteKey.keyFor([client.userId, message.trim(), pinned])),
    onSettled: (_note, error) => noteKey.settled(error),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: coachKeys.client(client.userId) });
      toast.success('Note sent', { description: pinned ? 'Pinned to the client’s home.' : 'Sent without pinning.' });
      onSent?.();
    },
    onError: () => toast.error('An unexpected error occurred. Please try again.'),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (message.trim()) send.mutate();
  };
  return (
    <form onSubmit={submit} className="space-y-3">
      <label className="block text-sm font-medium text-ink-900">
        {label}
        <textarea
          aria-label={label}
          rows={8}
          maxLength={2000}
          className={`${fieldClasses} mt-1 min-h-44 resize-y leading-relaxed`}
          value={message}
          onChange={(event) => setMessage(event.target.value)}
        />
      </label>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input type="checkbox" checked={pinned} onChange={(event) => setPinned(event.target.checked)} className="size-4 accent-spark-500" /> Pin
          <span className="text-slate-500">(shows on the client’s home)</span>
        </label>
        <Button type="submit" disabled={send.isPending || !message.trim()}>
          {send.isPending ? 'Sending...' : 'Send as note'}
        </Button>
      </div>
    </form>
  );
}

/** "Draft a nudge": the drafted message for a client the attention ordering flagged, edited before sending. */
export function NudgeDraftDialog({ client, onClose }: { client: ClientSummary; onClose: () => void }) {
  const draft = useQuery({
    queryKey: [...coachKeys.client(client.userId), 'nudge-draft'],
    queryFn: () => coachApi.nudgeDraft(client.userId),
    staleTime: 0,
    gcTime: 0,
  });
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={`Nudge ${client.fullName ?? client.email}`}>
      {draft.isPending ? (
        <div className="flex flex-col items-center gap-2 p-8 text-sm text-slate-600">
          <Spinner />
          Drafting from this week…
        </div>
      ) : draft.isError ? (
        <ListFailed message={loadFailureMessage(draft.error, 'The draft could not be loaded.')} onRetry={() => void draft.refetch()} />
      ) : (
        <div className="space-y-4">
          {client.attention.reason && <p className="rounded-xl bg-rose-50 p-3 text-sm font-medium text-rose-800">{client.attention.reason}</p>}
          <ul className="flex flex-wrap gap-2" aria-label="What the draft is based on">
            {factChips(draft.data.facts).map((chip) => (
              <li key={chip} className="rounded-full bg-slate-100 px-3 py-1 text-xs font-medium text-slate-700">
                {chip}
              </li>
            ))}
          </ul>
          <SendAsNote key={draft.data.message} client={client} draft={draft.data.message} label="Your message" onSent={onClose} />
          <p className="text-xs text-slate-500">{writerNote(draft.data.writer)} Edit anything before you send; nothing is sent until you click Send as note.</p>
        </div>
      )}
    </Dialog>
  );
}

function WeekStrip({ checkIn }: { checkIn: WeeklyCheckIn }) {
  return (
    <ol className="grid grid-cols-7 gap-1 text-center" aria-label="This week">
      {checkIn.days.map((day) => {
        const missed = checkIn.missedDays.includes(day.date);
        const tone = day.sparks
          ? 'bg-emerald-50 text-emerald-800 ring-emerald-200'
          : missed
            ? 'bg-rose-50 text-rose-800 ring-rose-200'
            : 'bg-slate-50 text-slate-500 ring-slate-200';
        return (
          <li key={day.date} className={`rounded-lg py-2 ring-1 ring-inset ${tone}`} title={day.paused ? 'Pause day' : undefined}>
            <p className="text-xs">{weekdayOf(day.date)}</p>
            <p className="text-lg font-bold">{day.paused ? '–' : day.sparks}</p>
          </li>
        );
      })}
    </ol>
  );
}

/** The Friday check-in: the week at a glance, its sparks as thumbnails, and a summary the coach edits and sends. */
export function FridayCheckInDialog({ client, onClose }: { client: ClientSummary; onClose: () => void }) {
  const checkIn = useQuery({
    queryKey: [...coachKeys.client(client.userId), 'weekly-check-in'],
    queryFn: () => coachApi.weeklyCheckIn(client.userId),
    staleTime: 0,
    gcTime: 0,
  });
  const week = checkIn.data;
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={`Friday check-in: ${client.fullName ?? client.email}`}>
      <div className="max-h-[72vh] overflow-y-auto pr-1">
        {checkIn.isPending ? (
          <div className="flex flex-col items-center gap-2 p-8 text-sm text-slate-600">
            <Spinner />
            Reading the week…
          </div>
        ) : !week ? (
          <ListFailed message={loadFailureMessage(checkIn.error, 'The check-in could not be loaded.')} onRetry={() => void checkIn.refetch()} />
        ) : (
          <div className="space-y-4">
            <p className="text-sm text-slate-600">
              {weekdayOf(week.weekStart)} {week.weekStart.slice(5).replace('-', '/')} – {weekdayOf(week.weekEnd)} {week.weekEnd.slice(5).replace('-', '/')}
            </p>
            <div className="grid grid-cols-3 gap-2 text-center">
              {[
                ['Sparks this week', week.facts.sparksThisWeek],
                ['Streak', week.currentStreak],
                ['Missed days', week.missedDays.length],
              ].map(([label, value]) => (
                <div key={label} className="rounded-xl bg-slate-50 p-3">
                  <p className="text-2xl font-bold text-ink-950">{value}</p>
                  <p className="text-xs text-slate-600">{label}</p>
                </div>
              ))}
            </div>
            <WeekStrip checkIn={week} />
            <section aria-label="This week's sparks">
              <p className="mb-1 text-sm font-medium text-ink-900">This week’s sparks</p>
              {week.sparks.length ? (
                <ul className="grid grid-cols-4 gap-2 sm:grid-cols-5">
                  {week.sparks.map((spark) => (
                    <li key={spark.id}>
                      <SparkThumbnail spark={spark} />
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="rounded-xl border border-dashed border-slate-200 p-4 text-center text-sm text-slate-500">No sparks this week.</p>
              )}
            </section>
            <div className="grid gap-2 sm:grid-cols-2">
              <div className="rounded-xl bg-emerald-50 p-3 text-sm text-emerald-900">
                <p className="font-semibold">What went well</p>
                <p>
                  {week.longestRun
                    ? `${plural(week.longestRun.days, 'day')} in a row, ${weekdayOf(week.longestRun.from)}–${weekdayOf(week.longestRun.to)}`
                    : 'No run of sparks yet this week'}
                </p>
                {week.clientNotes[0] && <p className="mt-1 italic">“{week.clientNotes[0]}”</p>}
              </div>
              <div className="rounded-xl bg-rose-50 p-3 text-sm text-rose-900">
                <p className="font-semibold">What slipped</p>
                <p>
                  {week.missedDays.length
                    ? `No spark on ${week.missedDays.map((day) => weekdayOf(day)).join(', ')}`
                    : 'Nothing: every day that counted had a spark'}
                </p>
              </div>
            </div>
            <SendAsNote key={week.summary} client={client} draft={week.summary} label="Check-in summary" onSent={onClose} />
            <p className="text-xs text-slate-500">{writerNote(week.writer)} Edit it before you share it; nothing is sent until you click Send as note.</p>
          </div>
        )}
      </div>
    </Dialog>
  );
}
