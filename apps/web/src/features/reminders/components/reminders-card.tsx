import { inQuietHours, type ReminderSettings } from '@spark/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ApiError, failureMessage } from '../../../api/client';
import { Button } from '../../../ui/button';
import { Card } from '../../../ui/card';
import { Input } from '../../../ui/input';
import { reminderKeys, remindersApi, subscribeThisDevice } from '../api/reminders-api';
import { pushSupported } from '../push-support';
import { ErrorText } from '../../../ui/error-text';

// Subscribing this device can fail in the browser itself (notifications blocked): its own words then.
const messageOf = (error: unknown) => (error instanceof Error && !(error instanceof ApiError) ? error.message : failureMessage(error));

function ReminderForm({ settings }: { settings: ReminderSettings }) {
  const queryClient = useQueryClient();
  const [enabled, setEnabled] = useState(settings.enabled);
  const [localTime, setLocalTime] = useState(settings.localTime);
  const [quiet, setQuiet] = useState(settings.quietHours !== null);
  const [quietStart, setQuietStart] = useState(settings.quietHours?.start ?? '22:00');
  const [quietEnd, setQuietEnd] = useState(settings.quietHours?.end ?? '07:00');
  const pushConfig = useQuery({ queryKey: reminderKeys.pushConfig, queryFn: remindersApi.pushConfig, staleTime: Infinity });
  const keep = (next: ReminderSettings) => queryClient.setQueryData(reminderKeys.settings, next);
  const save = useMutation({ mutationFn: remindersApi.update, onSuccess: keep });
  const device = useMutation({
    mutationFn: async () => remindersApi.setPushSubscription(await subscribeThisDevice(pushConfig.data?.vapidPublicKey ?? '')),
    onSuccess: keep,
  });
  const quietHours = quiet ? { start: quietStart, end: quietEnd } : null;
  const conflict = enabled && inQuietHours(localTime, quietHours);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ enabled, localTime, quietHours });
  };
  const canPush = Boolean(pushConfig.data?.vapidPublicKey) && pushSupported();

  return (
    <form onSubmit={submit} className="mt-4 space-y-4">
      <label className="flex items-center gap-3 text-sm font-medium text-ink-900">
        <input type="checkbox" className="size-5 accent-spark-600" checked={enabled} onChange={(event) => setEnabled(event.target.checked)} />
        Remind me on days without a spark
      </label>
      <label className="block text-sm font-medium text-ink-900">
        At
        <Input type="time" className="mt-1 max-w-40" value={localTime} onChange={(event) => setLocalTime(event.target.value)} required disabled={!enabled} />
      </label>
      <label className="flex items-center gap-3 text-sm font-medium text-ink-900">
        <input type="checkbox" className="size-5 accent-spark-600" checked={quiet} onChange={(event) => setQuiet(event.target.checked)} disabled={!enabled} />
        Quiet hours
      </label>
      {quiet && (
        <div className="flex flex-wrap items-end gap-3">
          <label className="text-sm font-medium text-ink-900">
            From
            <Input type="time" className="mt-1 w-36" value={quietStart} onChange={(event) => setQuietStart(event.target.value)} disabled={!enabled} />
          </label>
          <label className="text-sm font-medium text-ink-900">
            Until
            <Input type="time" className="mt-1 w-36" value={quietEnd} onChange={(event) => setQuietEnd(event.target.value)} disabled={!enabled} />
          </label>
        </div>
      )}
      {conflict && (
        <p className="text-sm text-amber-800" role="alert">
          Your reminder time falls in your quiet hours
        </p>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" variant="secondary" disabled={save.isPending || conflict}>
          {save.isPending ? 'Saving…' : 'Save reminder'}
        </Button>
        {save.isSuccess && !save.isPending && (
          <span className="text-sm font-medium text-emerald-700" role="status">
            {save.data.enabled ? `Saved: ${save.data.localTime}, only if you have not captured a spark by then.` : 'Saved: reminders are off.'}
          </span>
        )}
      </div>
      <p className="text-sm text-slate-600" data-testid="reminder-channel">
        {settings.push ? 'Reminders come as a notification on your device.' : 'Reminders come by e-mail.'}
        {canPush && !settings.push && (
          <button type="button" className="ml-2 font-semibold text-spark-700 hover:underline" onClick={() => device.mutate()} disabled={device.isPending}>
            Get them as notifications on this device
          </button>
        )}
      </p>
      {(save.isError || device.isError) && <ErrorText>{messageOf(save.error ?? device.error)}</ErrorText>}
    </form>
  );
}

/** "Daily reminder": a nudge at the client's chosen time, only on days without a spark (docs/reminders.md). */
export function RemindersCard() {
  const settings = useQuery({ queryKey: reminderKeys.settings, queryFn: remindersApi.settings });
  return (
    <Card className="p-5" data-testid="reminders">
      <p className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Daily reminder</p>
      <p className="mt-2 text-slate-600">
        A nudge at the time you choose, only on days you have not captured a spark yet. Never twice a day, never in your quiet hours.
      </p>
      {settings.data ? (
        <ReminderForm settings={settings.data} />
      ) : settings.isError ? (
        <p className="mt-3 text-sm text-red-700">{messageOf(settings.error)}</p>
      ) : null}
    </Card>
  );
}
