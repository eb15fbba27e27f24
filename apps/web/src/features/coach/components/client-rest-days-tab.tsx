import { calendarDateLabel, type ClientSummary, MAX_PAUSE_DAYS_ALLOWANCE, weekdayNames } from '@spark/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../../../api/client';
import { Button } from '../../../ui/button';
import { Input } from '../../../ui/input';
import { ListFailed, ListLoading } from '../../../ui/list-states';
import { toast } from '../../../ui/toaster';
import { coachApi, coachKeys } from '../api/coach-api';
import { ErrorText } from '../../../ui/error-text';

/** Manage Client → Rest Days: the client's weekly rest day and pause days, and the allowance the coach sets. */
export function ClientRestDaysTab({ client, onUpdated }: { client: ClientSummary; onUpdated: () => void }) {
  const queryClient = useQueryClient();
  const homeKey = [...coachKeys.client(client.userId), 'home'];
  const home = useQuery({ queryKey: homeKey, queryFn: () => coachApi.clientHome(client.userId) });
  const restDays = home.data?.restDays;
  const [allowance, setAllowance] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    // A whole number goes as a number (the audit keeps it so); anything else as typed, for the gateway's field error.
    mutationFn: (typed: string) => coachApi.setPauseAllowance(client.userId, { pauseDaysAllowance: /^\d+$/.test(typed) ? Number(typed) : typed }),
    onSuccess: () => {
      toast.success('Pause days updated');
      setError(null);
      setAllowance(null);
      void queryClient.invalidateQueries({ queryKey: homeKey });
      onUpdated();
    },
    onError: (cause) =>
      setError(cause instanceof ApiError ? (cause.fieldErrors.pauseDaysAllowance?.[0] ?? cause.message) : 'Failed to update pause days. Please try again.'),
  });

  if (home.isPending) return <ListLoading />;
  if (home.isError) return <ListFailed message="The rest days could not be loaded." onRetry={() => void home.refetch()} />;
  if (!restDays) return <p className="text-sm text-slate-600">Rest days appear once the client has finished onboarding.</p>;
  const upcoming = restDays.pauseDays.filter((day) => day >= restDays.today);
  const taken = restDays.pauseDays.filter((day) => day < restDays.today);
  return (
    <div className="space-y-4" data-testid="client-rest-days">
      <div className="grid grid-cols-2 gap-2 text-center">
        <div className="rounded-xl bg-slate-50 p-3">
          <p className="text-lg font-bold text-ink-950">{restDays.restWeekday === null ? 'None' : weekdayNames[restDays.restWeekday]}</p>
          <p className="text-xs text-slate-600">Weekly rest day</p>
        </div>
        <div className="rounded-xl bg-slate-50 p-3">
          <p className="text-lg font-bold text-ink-950">
            {restDays.pauseDaysLeft} of {restDays.pauseDaysAllowance}
          </p>
          <p className="text-xs text-slate-600">Pause days left until {calendarDateLabel(restDays.window.end, 'short')}</p>
        </div>
      </div>
      <div>
        <p className="mb-1 text-sm font-medium text-ink-900">Pause days this evolution</p>
        {restDays.pauseDays.length === 0 ? (
          <p className="rounded-xl border border-dashed border-slate-200 p-3 text-center text-sm text-slate-500">No pause days taken yet.</p>
        ) : (
          <ul className="flex flex-wrap gap-2" data-testid="client-pause-days">
            {upcoming.map((day) => (
              <li key={day} className="rounded-full bg-ink-950 px-3 py-1 text-sm font-medium text-white">
                {day === restDays.today ? 'Today' : calendarDateLabel(day, 'short')}
              </li>
            ))}
            {taken.map((day) => (
              <li key={day} className="rounded-full bg-slate-100 px-3 py-1 text-sm text-slate-600">
                {calendarDateLabel(day, 'short')} · taken
              </li>
            ))}
          </ul>
        )}
        <p className="mt-2 text-xs text-slate-500">Rest and pause days neither break nor extend the streak, and they do not count toward "Needs attention".</p>
      </div>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (allowance) save.mutate(allowance.trim());
        }}
        className="space-y-2"
      >
        <label className="block text-sm font-medium text-ink-900">
          Pause days allowed every {restDays.windowDays} days
          <Input
            inputMode="numeric"
            className="mt-1"
            value={allowance ?? String(restDays.pauseDaysAllowance)}
            onChange={(event) => setAllowance(event.target.value)}
            aria-describedby="allowance-hint"
          />
        </label>
        <p id="allowance-hint" className="text-xs text-slate-500">
          Between 0 and {MAX_PAUSE_DAYS_ALLOWANCE}; the default is 2.
        </p>
        {error && <ErrorText className="font-medium">{error}</ErrorText>}
        <Button type="submit" disabled={save.isPending || !allowance?.trim()}>
          {save.isPending ? 'Saving...' : 'Save pause days'}
        </Button>
      </form>
    </div>
  );
}
