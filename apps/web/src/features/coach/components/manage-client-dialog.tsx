import { type ClientSummary, clientStatuses, evolutionView } from '@spark/contracts';
import * as Tabs from '@radix-ui/react-tabs';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useIdempotencyKey } from '../../../api/use-idempotency-key';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { Input } from '../../../ui/input';
import { ListFailed, ListLoading, ListMore } from '../../../ui/list-states';
import { Select } from '../../../ui/select';
import { toast } from '../../../ui/toaster';
import { coachApi, coachKeys, formatDateTime, restingTodayLabel } from '../api/coach-api';
import { useSession } from '../../session';
import { ClientDitlTab } from './client-ditl-tab';
import { ClientExportTab } from './client-export-tab';
import { ClientRestDaysTab } from './client-rest-days-tab';
import { SparkThumbnail } from './spark-thumbnail';
import { SparksChart } from './sparks-chart';

const weekdayNames = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const tabClass =
  'whitespace-nowrap rounded-lg px-3 py-1.5 text-sm font-medium text-slate-600 data-[state=active]:bg-white data-[state=active]:text-ink-950 data-[state=active]:shadow';

function Overview({ client }: { client: ClientSummary }) {
  const detail = useQuery({ queryKey: coachKeys.client(client.userId), queryFn: () => coachApi.client(client.userId) });
  const cycle = evolutionView(client, new Date(), client.timeZone);
  const trends = detail.data?.trends;
  return (
    <div className="space-y-4">
      <div className="grid grid-cols-3 gap-2 text-center">
        {[
          ['Days left', cycle.daysLeft],
          ['Sparks', client.sparkCount],
          ['Streak', client.streakCount],
        ].map(([label, value]) => (
          <div key={label} className="rounded-xl bg-slate-50 p-3">
            <p className="text-2xl font-bold text-ink-950">{value}</p>
            <p className="text-xs text-slate-600">{label}</p>
          </div>
        ))}
      </div>
      <div>
        <div className="flex justify-between text-xs text-slate-600">
          <span>Evolution {client.evolutionNumber}</span>
          <span>{cycle.percentComplete}% complete</span>
        </div>
        <div className="mt-1 h-2 rounded-full bg-slate-100">
          <div className="h-2 rounded-full bg-spark-500" style={{ width: `${cycle.percentComplete}%` }} />
        </div>
      </div>
      {detail.isPending && <ListLoading />}
      {detail.isError && <ListFailed message="The client's trends could not be loaded." onRetry={() => void detail.refetch()} />}
      {trends && (
        <>
          {client.restingToday ? (
            <p className="rounded-xl bg-sky-50 p-3 text-sm font-medium text-sky-800">{restingTodayLabel[client.restingToday]}: not counted as a missed day.</p>
          ) : trends.attention.slipping ? (
            <p className="rounded-xl bg-rose-50 p-3 text-sm font-medium text-rose-800">Needs attention: {trends.attention.reason}</p>
          ) : (
            <p className="rounded-xl bg-emerald-50 p-3 text-sm text-emerald-800">
              {trends.daysSinceLastSpark === null
                ? 'No sparks yet.'
                : trends.daysSinceLastSpark === 0
                  ? 'Sparked today.'
                  : `Last spark ${trends.daysSinceLastSpark} day(s) ago.`}
            </p>
          )}
          <div>
            <p className="mb-1 text-sm font-medium text-ink-900">Sparks per day</p>
            {trends.sparksPerDay.some((day) => day.count > 0) ? (
              <SparksChart days={trends.sparksPerDay} />
            ) : (
              <p className="rounded-xl border border-dashed border-slate-200 p-4 text-center text-sm text-slate-500">The chart fills in as sparks arrive.</p>
            )}
          </div>
          <div>
            <p className="mb-1 text-sm font-medium text-ink-900">Time of day</p>
            <div className="grid grid-cols-4 gap-2 text-center">
              {Object.entries(trends.timeOfDay).map(([part, count]) => (
                <div key={part} className="rounded-lg bg-slate-50 py-2">
                  <p className="font-semibold text-ink-950">{count}</p>
                  <p className="text-xs text-slate-600 capitalize">{part}</p>
                </div>
              ))}
            </div>
          </div>
          <div>
            <p className="mb-1 text-sm font-medium text-ink-900">Weekdays</p>
            <div className="grid grid-cols-7 gap-1 text-center">
              {trends.weekdays.map((count, day) => (
                <div key={weekdayNames[day]} className="rounded-lg bg-slate-50 py-2">
                  <p className="font-semibold text-ink-950">{count}</p>
                  <p className="text-xs text-slate-600">{weekdayNames[day]}</p>
                </div>
              ))}
            </div>
          </div>
        </>
      )}
    </div>
  );
}

function EditRecord({ client, onUpdated }: { client: ClientSummary; onUpdated: () => void }) {
  const [goal, setGoal] = useState(client.transformationGoal ?? '');
  const [status, setStatus] = useState(client.status);
  const [days, setDays] = useState(client.customEvolutionDays?.toString() ?? '');
  const save = useMutation({
    mutationFn: () =>
      coachApi.updateClient(client.userId, {
        transformationGoal: goal.trim() || null,
        status: clientStatuses.find((value) => value === status),
        customEvolutionDays: days.trim() ? Number.parseInt(days, 10) : null,
      }),
    onSuccess: () => {
      toast.success('Client record updated');
      onUpdated();
    },
    onError: () => toast.error('Update failed', { description: 'Failed to update client record. Please try again.' }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={submit} className="space-y-4">
      <label className="block text-sm font-medium text-ink-900">
        Transformation goal
        <Input value={goal} onChange={(event) => setGoal(event.target.value)} className="mt-1" />
      </label>
      <label className="block text-sm font-medium text-ink-900">
        Status
        <Select value={status} onChange={(event) => setStatus(event.target.value)} className="mt-1">
          {clientStatuses.map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </Select>
      </label>
      <label className="block text-sm font-medium text-ink-900">
        Custom evolution days
        <Input inputMode="numeric" value={days} placeholder="90" onChange={(event) => setDays(event.target.value)} className="mt-1" />
      </label>
      <Button type="submit" disabled={save.isPending}>
        {save.isPending ? 'Saving...' : 'Save changes'}
      </Button>
    </form>
  );
}

function Activity({ client }: { client: ClientSummary }) {
  const queryClient = useQueryClient();
  const sparks = useQuery({ queryKey: [...coachKeys.client(client.userId), 'sparks'], queryFn: () => coachApi.sparks(client.userId) });
  const notes = useInfiniteQuery({
    queryKey: coachKeys.privateNotes(client.userId),
    queryFn: ({ pageParam }) => coachApi.privateNotes(client.userId, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
  const noteItems = notes.data?.pages.flatMap((page) => page.items);
  const [note, setNote] = useState('');
  const [nudge, setNudge] = useState('');
  const [pinned, setPinned] = useState(true);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: coachKeys.client(client.userId) });
  const noteKey = useIdempotencyKey('private-note');
  const nudgeKey = useIdempotencyKey('nudge');
  const addNote = useMutation({
    mutationFn: () => coachApi.addPrivateNote(client.userId, note, noteKey.keyFor([client.userId, note])),
    onSettled: (_note, error) => noteKey.settled(error),
    onSuccess: () => {
      setNote('');
      refresh();
      toast.success('Private note saved');
    },
    onError: () => toast.error('An unexpected error occurred. Please try again.'),
  });
  const sendNudge = useMutation({
    mutationFn: () => coachApi.sendNudge(client.userId, nudge, pinned, nudgeKey.keyFor([client.userId, nudge, pinned])),
    onSettled: (_note, error) => nudgeKey.settled(error),
    onSuccess: () => {
      setNudge('');
      refresh();
      toast.success('Nudge sent');
    },
    onError: () => toast.error('An unexpected error occurred. Please try again.'),
  });
  return (
    <div className="space-y-5">
      {sparks.isPending ? (
        <ListLoading />
      ) : sparks.isError ? (
        <ListFailed message="The sparks could not be loaded." onRetry={() => void sparks.refetch()} />
      ) : (
        <div className="grid grid-cols-3 gap-2 sm:grid-cols-4">
          {sparks.data.items.map((spark) => (
            <SparkThumbnail key={spark.id} spark={spark} />
          ))}
          {sparks.data.items.length === 0 && <p className="col-span-full text-sm text-slate-600">No sparks yet.</p>}
        </div>
      )}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (nudge.trim()) sendNudge.mutate();
        }}
        className="space-y-2"
      >
        <p className="text-sm font-medium text-ink-900">
          Send a nudge <span className="font-normal text-slate-500">(the client sees the latest pinned one on their home)</span>
        </p>
        <Input value={nudge} onChange={(event) => setNudge(event.target.value)} placeholder="You've got this: one spark today!" aria-label="Nudge message" />
        <label className="flex items-center gap-2 text-sm text-slate-600">
          <input type="checkbox" checked={pinned} onChange={(event) => setPinned(event.target.checked)} /> Pin to the client's home
        </label>
        <Button type="submit" disabled={sendNudge.isPending || !nudge.trim()}>
          {sendNudge.isPending ? 'Sending...' : 'Send Nudge'}
        </Button>
      </form>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (note.trim()) addNote.mutate();
        }}
        className="space-y-2"
      >
        <p className="text-sm font-medium text-ink-900">
          Private note <span className="font-normal text-slate-500">(coaches only)</span>
        </p>
        <Input value={note} onChange={(event) => setNote(event.target.value)} aria-label="Private note" />
        <Button type="submit" variant="secondary" disabled={addNote.isPending || !note.trim()}>
          Add Note
        </Button>
        {notes.isError && <ListFailed message="The private notes could not be loaded." onRetry={() => void notes.refetch()} />}
        {noteItems?.length === 0 && <p className="text-sm text-slate-600">No private notes yet.</p>}
        <ul className="space-y-2">
          {noteItems?.map((item) => (
            <li key={item.id} className="rounded-lg bg-slate-50 p-2 text-sm">
              <p>{item.note}</p>
              <p className="text-xs text-slate-500">{formatDateTime(item.createdAt)}</p>
            </li>
          ))}
        </ul>
        <ListMore list={notes} />
      </form>
    </div>
  );
}

export function ManageClientDialog({ client, onClose, onUpdated }: { client: ClientSummary; onClose: () => void; onUpdated: () => void }) {
  const isAdmin = useSession().user?.user_metadata.role === 'admin';
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={client.fullName ?? client.email}>
      <Tabs.Root defaultValue="overview" className="max-h-[70vh] overflow-y-auto">
        <Tabs.List className="mb-4 flex flex-wrap gap-1 rounded-xl bg-slate-100 p-1">
          <Tabs.Trigger value="overview" className={tabClass}>
            Overview
          </Tabs.Trigger>
          <Tabs.Trigger value="edit" className={tabClass}>
            Edit Record
          </Tabs.Trigger>
          <Tabs.Trigger value="activity" className={tabClass}>
            Activity
          </Tabs.Trigger>
          <Tabs.Trigger value="rest" className={tabClass}>
            Rest Days
          </Tabs.Trigger>
          <Tabs.Trigger value="ditl" className={tabClass}>
            Day in the Life
          </Tabs.Trigger>
          {isAdmin && (
            <Tabs.Trigger value="data" className={tabClass}>
              Data Export
            </Tabs.Trigger>
          )}
        </Tabs.List>
        <Tabs.Content value="overview">
          <Overview client={client} />
        </Tabs.Content>
        <Tabs.Content value="edit">
          <EditRecord client={client} onUpdated={onUpdated} />
        </Tabs.Content>
        <Tabs.Content value="activity">
          <Activity client={client} />
        </Tabs.Content>
        <Tabs.Content value="rest">
          <ClientRestDaysTab client={client} onUpdated={onUpdated} />
        </Tabs.Content>
        <Tabs.Content value="ditl">
          <ClientDitlTab client={client} />
        </Tabs.Content>
        {isAdmin && (
          <Tabs.Content value="data">
            <ClientExportTab client={client} />
          </Tabs.Content>
        )}
      </Tabs.Root>
    </Dialog>
  );
}
