import { addDays, calendarDateLabel, type HomeResponse, type RestDays, restKindOf, weekdayNames } from '@spark/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { failureMessage } from '../../../api/client';
import { Button } from '../../../ui/button';
import { Card } from '../../../ui/card';
import { Input } from '../../../ui/input';
import { Select } from '../../../ui/select';
import { homeQueryKeyOf, setRestDay, takePauseDay } from '../api/client-app-api';
import { ErrorText } from '../../../ui/error-text';

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
const dayLabel = (isoDate: string, today: string) => (isoDate === today ? 'Today' : calendarDateLabel(isoDate, 'short'));

/**
 * "Rest and recovery": the weekly rest day and the pause days that keep a streak alive. Shown from the
 * home snapshot offline too; changing either needs the network.
 */
export function RestDaysCard({
  userId,
  restDays,
  evolutionEndDate,
  offline,
}: {
  userId: string;
  restDays: RestDays;
  evolutionEndDate: string;
  offline: boolean;
}) {
  const queryClient = useQueryClient();
  const [picking, setPicking] = useState(false);
  const [date, setDate] = useState(restDays.today);
  const [error, setError] = useState<string | null>(null);
  // The home query (and with it the offline snapshot) takes the answer at once.
  const keep = (next: RestDays) => queryClient.setQueryData<HomeResponse>(homeQueryKeyOf(userId), (home) => (home ? { ...home, restDays: next } : home));
  const fail = (cause: unknown) => setError(failureMessage(cause));
  const pause = useMutation({
    mutationFn: () => takePauseDay(date),
    onSuccess: (next) => {
      keep(next);
      setPicking(false);
      setError(null);
    },
    onError: fail,
  });
  const rest = useMutation({ mutationFn: setRestDay, onSuccess: (next) => (keep(next), setError(null)), onError: fail });

  const today = restDays.today;
  const kindToday = restKindOf(restDays, today);
  const upcoming = restDays.pauseDays.filter((day) => day >= today);
  const used = restDays.pauseDays.filter((day) => day < today);

  return (
    <Card className="p-5" data-testid="rest-days">
      <div className="flex items-start justify-between gap-3">
        <div>
          <p className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Rest and recovery</p>
          <p className="mt-2 text-lg font-semibold text-ink-950" data-testid="rest-today">
            {kindToday === 'rest'
              ? 'Rest day today: your streak is safe.'
              : kindToday === 'pause'
                ? 'Pause day today: your streak is safe.'
                : 'Rest days keep your streak alive.'}
          </p>
        </div>
        <p className="shrink-0 rounded-full bg-spark-50 px-3 py-1 text-sm font-medium text-spark-700" data-testid="pause-days-left">
          {plural(restDays.pauseDaysLeft, 'pause day')} left
        </p>
      </div>
      <p className="mt-1 text-sm text-slate-600">
        Your coach gives you {plural(restDays.pauseDaysAllowance, 'pause day')} every {restDays.windowDays} days, this stretch until{' '}
        {calendarDateLabel(restDays.window.end)}. A rest or pause day neither breaks nor adds to your streak.
      </p>

      <label className="mt-4 block text-sm font-medium text-ink-900" htmlFor="rest-weekday">
        Weekly rest day
      </label>
      <Select
        id="rest-weekday"
        className="mt-1"
        value={restDays.restWeekday ?? ''}
        disabled={offline || rest.isPending}
        onChange={(event) => rest.mutate(event.currentTarget.value === '' ? null : Number(event.currentTarget.value))}
      >
        <option value="">No weekly rest day</option>
        {weekdayNames.map((name, index) => (
          <option key={name} value={index}>
            {name}
          </option>
        ))}
      </Select>

      {upcoming.length + used.length > 0 && (
        <ul className="mt-4 flex flex-wrap gap-2" data-testid="pause-days">
          {upcoming.map((day) => (
            <li key={day} className="rounded-full bg-ink-950 px-3 py-1 text-sm font-medium text-white">
              {dayLabel(day, today)}
            </li>
          ))}
          {used.map((day) => (
            <li key={day} className="rounded-full bg-slate-100 px-3 py-1 text-sm text-slate-600">
              {calendarDateLabel(day, 'short')} · taken
            </li>
          ))}
        </ul>
      )}

      {picking ? (
        <form
          className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end"
          onSubmit={(event) => {
            event.preventDefault();
            pause.mutate();
          }}
        >
          <label className="flex-1 text-sm font-medium text-ink-900">
            Pause on
            <Input
              type="date"
              className="mt-1"
              value={date}
              min={today}
              max={evolutionEndDate}
              required
              onChange={(event) => setDate(event.currentTarget.value)}
            />
          </label>
          <div className="flex gap-2">
            <Button type="submit" disabled={pause.isPending}>
              {pause.isPending ? 'Saving...' : 'Pause this day'}
            </Button>
            <Button variant="ghost" onClick={() => (setPicking(false), setError(null))}>
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        <Button variant="secondary" className="mt-4 w-full" disabled={offline || restDays.pauseDaysLeft === 0} onClick={() => setPicking(true)}>
          Take a pause day
        </Button>
      )}
      {restDays.pauseDaysLeft === 0 && !picking && (
        <p className="mt-2 text-sm text-slate-500">Your next pause days start on {calendarDateLabel(addDays(restDays.window.end, 1))}.</p>
      )}
      {offline && <p className="mt-2 text-sm text-slate-500">You can plan rest and pause days when you are back online.</p>}
      {error && <ErrorText className="mt-3 font-medium">{error}</ErrorText>}
    </Card>
  );
}
