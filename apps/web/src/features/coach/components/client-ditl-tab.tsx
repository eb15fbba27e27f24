import type { CoachDitlMoment, CoachDitlView, ClientSummary, DitlGenerationSummary } from '@spark/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ApiError } from '../../../api/client';
import { useIdempotencyKey } from '../../../api/use-idempotency-key';
import { Button } from '../../../ui/button';
import { classNames } from '../../../ui/class-names';
import { fieldClasses, Input } from '../../../ui/input';
import { ListFailed } from '../../../ui/list-states';
import { Spinner } from '../../../ui/spinner';
import { toast } from '../../../ui/toaster';
import { coachDitlApi, coachDitlKeys } from '../../ditl/api/coach-ditl-api';
import { ditlTiming } from '../../ditl/ditl-timing';
import { formatDateTime } from '../api/coach-api';

const inProgress = (generation: DitlGenerationSummary | null | undefined) => generation?.status === 'queued' || generation?.status === 'generating';

const statusLabels: Record<DitlGenerationSummary['status'], { label: string; tone: string }> = {
  queued: { label: 'Queued', tone: 'bg-amber-100 text-amber-800' },
  generating: { label: 'Generating', tone: 'bg-amber-100 text-amber-800' },
  completed: { label: 'Completed', tone: 'bg-emerald-100 text-emerald-800' },
  failed: { label: 'Failed', tone: 'bg-rose-100 text-rose-800' },
};

const plannerLabel = (planner: DitlGenerationSummary['planner']) =>
  planner === 'openai' ? 'the AI model' : planner === 'offline' ? 'the offline planner' : null;

function GenerationStatus({ latest, onRegenerate, regenerating }: { latest: DitlGenerationSummary | null; onRegenerate: () => void; regenerating: boolean }) {
  const running = inProgress(latest);
  const planner = latest && plannerLabel(latest.planner);
  return (
    <div className="rounded-xl bg-slate-50 p-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 space-y-1">
          {latest ? (
            <>
              <p className="flex flex-wrap items-center gap-2 text-sm text-ink-900">
                <span className={classNames('rounded-full px-2.5 py-0.5 text-xs font-semibold', statusLabels[latest.status].tone)} data-testid="ditl-status">
                  {statusLabels[latest.status].label}
                </span>
                {planner && <span>Made by {planner}</span>}
              </p>
              <p className="text-xs text-slate-600">
                Requested {formatDateTime(latest.createdAt)}
                {latest.completedAt && ` · finished ${formatDateTime(latest.completedAt)}`}
              </p>
            </>
          ) : (
            <p className="text-sm text-slate-600">No Day in the Life yet. It is created from the client's answers when they finish onboarding.</p>
          )}
        </div>
        {latest && (
          <Button variant="secondary" onClick={onRegenerate} disabled={running || regenerating}>
            {running || regenerating ? <Spinner className="size-4" label="Regenerating" /> : null}
            {running || regenerating ? 'Regenerating...' : 'Regenerate'}
          </Button>
        )}
      </div>
      {running && latest && (
        <div className="mt-3" aria-label="Generation progress">
          <div className="h-2 rounded-full bg-white">
            <div className="h-2 rounded-full bg-spark-500 transition-all" style={{ width: `${Math.max(5, latest.progress)}%` }} />
          </div>
          <p className="mt-1 text-xs text-slate-600">Writing a new plan from the client's latest answers ({latest.progress}%). Your edits carry over.</p>
        </div>
      )}
      {latest?.status === 'failed' && (
        <p className="mt-2 text-xs text-rose-700">This generation failed. The client still sees the plan below; try Regenerate again later.</p>
      )}
    </div>
  );
}

function MomentEditor({
  moment,
  saving,
  fieldErrors,
  onSave,
  onCancel,
}: {
  moment: CoachDitlMoment;
  saving: boolean;
  fieldErrors: Record<string, string[]>;
  onSave: (narrative: string, habit: string) => void;
  onCancel: () => void;
}) {
  const [narrative, setNarrative] = useState(moment.narrative);
  const [habit, setHabit] = useState(moment.habit);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSave(narrative, habit);
  };
  return (
    <form onSubmit={submit} className="mt-3 space-y-3">
      <label className="block text-sm font-medium text-ink-900">
        What happens
        <textarea
          value={narrative}
          onChange={(event) => setNarrative(event.target.value)}
          rows={4}
          maxLength={800}
          className={classNames(fieldClasses, 'mt-1 text-sm')}
        />
        {fieldErrors.narrative?.map((error) => (
          <span key={error} className="mt-1 block text-xs text-rose-700">
            {error}
          </span>
        ))}
      </label>
      <label className="block text-sm font-medium text-ink-900">
        Habit
        <Input value={habit} onChange={(event) => setHabit(event.target.value)} maxLength={300} className="mt-1 text-sm" />
        {fieldErrors.habit?.map((error) => (
          <span key={error} className="mt-1 block text-xs text-rose-700">
            {error}
          </span>
        ))}
      </label>
      <div className="flex gap-2">
        <Button type="submit" disabled={saving}>
          {saving ? 'Saving...' : 'Save'}
        </Button>
        <Button variant="ghost" onClick={onCancel} disabled={saving}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

function MomentCard({ userId, moment }: { userId: string; moment: CoachDitlMoment }) {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const show = (view: CoachDitlView) => queryClient.setQueryData(coachDitlKeys.view(userId), view);
  const save = useMutation({
    mutationFn: (edit: { narrative: string; habit: string }) => coachDitlApi.editMoment(userId, moment.key, edit),
    onSuccess: (view) => {
      show(view);
      setEditing(false);
      toast.success('Moment saved', { description: 'The client sees your version, and it stays through every regenerate.' });
    },
    onError: (error) => {
      if (!(error instanceof ApiError && error.status === 400))
        toast.error(error instanceof ApiError ? error.message : 'An unexpected error occurred. Please try again.');
    },
  });
  const reset = useMutation({
    mutationFn: () => coachDitlApi.resetMoment(userId, moment.key),
    onSuccess: (view) => {
      show(view);
      toast.success('Moment reset to what the planner wrote');
    },
    onError: () => toast.error('An unexpected error occurred. Please try again.'),
  });
  const edited = moment.editedAt !== null;
  return (
    <li
      className={classNames('rounded-xl border border-l-4 border-slate-200 bg-white p-4', edited ? 'border-l-ink-500' : 'border-l-spark-500')}
      data-moment={moment.key}
    >
      <div className="flex flex-wrap items-center gap-2">
        <span className="rounded-full bg-spark-100 px-2.5 py-0.5 text-xs font-bold tracking-wide text-spark-800 uppercase">{moment.time}</span>
        {edited && <span className="rounded-full bg-ink-100 px-2.5 py-0.5 text-xs font-semibold text-ink-800">Edited by coach</span>}
      </div>
      <h4 className="mt-2 font-semibold text-ink-950">{moment.title}</h4>
      {editing ? (
        <MomentEditor
          moment={moment}
          saving={save.isPending}
          fieldErrors={save.error instanceof ApiError ? save.error.fieldErrors : {}}
          onSave={(narrative, habit) => save.mutate({ narrative, habit })}
          onCancel={() => {
            save.reset();
            setEditing(false);
          }}
        />
      ) : (
        <>
          <p className="mt-1 text-sm leading-relaxed text-ink-900">{moment.narrative}</p>
          <p className="mt-2 text-sm text-ink-900">
            <span className="font-semibold text-ink-700">Habit:</span> {moment.habit}
          </p>
          {edited && moment.editedAt && (
            <p className="mt-2 text-xs text-slate-500">
              Edited {formatDateTime(moment.editedAt)}. The planner wrote: “{moment.generated.habit}”
            </p>
          )}
          <div className="mt-3 flex flex-wrap gap-2">
            <Button variant="secondary" onClick={() => setEditing(true)} aria-label={`Edit ${moment.title}`}>
              Edit
            </Button>
            {edited && (
              <Button variant="ghost" onClick={() => reset.mutate()} disabled={reset.isPending}>
                {reset.isPending ? 'Resetting...' : 'Reset to generated'}
              </Button>
            )}
          </div>
        </>
      )}
    </li>
  );
}

/** Manage Client → Day in the Life: the client's plan as they see it, its regeneration and the coach's edits. */
export function ClientDitlTab({ client }: { client: ClientSummary }) {
  const queryClient = useQueryClient();
  const [{ pollIntervalMs }] = useState(ditlTiming);
  const view = useQuery({
    queryKey: coachDitlKeys.view(client.userId),
    queryFn: () => coachDitlApi.view(client.userId),
    refetchInterval: (query) => (inProgress(query.state.data?.latest) ? pollIntervalMs : false),
  });
  const regenerateKey = useIdempotencyKey('regenerate-ditl');
  const regenerate = useMutation({
    mutationFn: () => coachDitlApi.regenerate(client.userId, regenerateKey.keyFor(client.userId)),
    onSettled: (_generation, error) => regenerateKey.settled(error),
    // Pending until the view shows the new generation: until then the old plan's "Completed" and an enabled
    // Regenerate button would still be on screen.
    onSuccess: () => {
      toast.success('Regenerating the Day in the Life', { description: "A new plan is being written from the client's latest answers." });
      return queryClient.invalidateQueries({ queryKey: coachDitlKeys.view(client.userId) });
    },
    onError: (error) => toast.error(error instanceof ApiError ? error.message : 'An unexpected error occurred. Please try again.'),
  });

  if (view.isPending)
    return (
      <div className="flex justify-center py-8">
        <Spinner label="Loading the Day in the Life" />
      </div>
    );
  if (view.isError) return <ListFailed message="The Day in the Life could not be loaded." onRetry={() => void view.refetch()} />;
  const { latest, current } = view.data;
  return (
    <div className="space-y-4">
      <GenerationStatus latest={latest} onRegenerate={() => regenerate.mutate()} regenerating={regenerate.isPending} />
      {current && (
        <section aria-label="The client's plan" className="space-y-3">
          {current.generation.generationId !== latest?.generationId && (
            <p className="text-xs text-slate-600">
              The client sees the plan finished {current.generation.completedAt ? formatDateTime(current.generation.completedAt) : ''}.
            </p>
          )}
          {current.title && (
            <div>
              <h3 className="font-display text-lg font-bold text-ink-950">{current.title}</h3>
              <p className="text-sm text-slate-600">{current.subtitle}</p>
            </div>
          )}
          {current.moments.length ? (
            <ol className="space-y-3">
              {current.moments.map((moment) => (
                <MomentCard key={`${current.generation.generationId}-${moment.key}`} userId={client.userId} moment={moment} />
              ))}
            </ol>
          ) : (
            <p className="rounded-xl border border-dashed border-slate-200 p-4 text-center text-sm text-slate-600">
              This plan was made before its moments were kept apart. Regenerate it to edit its moments.
            </p>
          )}
        </section>
      )}
    </div>
  );
}
