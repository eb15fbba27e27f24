import type { ClientSort, ClientSummary } from '@spark/contracts';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../../ui/button';
import { Card } from '../../../ui/card';
import { Select } from '../../../ui/select';
import { ListEmpty, ListFailed, ListLoading, ListMore } from '../../../ui/list-states';
import { coachApi, coachKeys, restingTodayLabel } from '../api/coach-api';
import { AddClientLeadDialog } from './add-client-lead-dialog';
import { FridayCheckInDialog, NudgeDraftDialog } from './coaching-drafts';
import { ManageClientDialog } from './manage-client-dialog';

function StatusBadge({ status }: { status: string }) {
  const solid = status === 'active';
  return (
    <span
      className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold ${solid ? 'bg-emerald-600 text-white' : 'text-slate-700 ring-1 ring-slate-300'}`}
    >
      {status || 'active'}
    </span>
  );
}

type ClientDialog = 'manage' | 'nudge' | 'check-in';

function ClientRow({ client, onOpen }: { client: ClientSummary; onOpen: (dialog: ClientDialog) => void }) {
  return (
    <li className="flex flex-col gap-3 border-b border-slate-100 p-4 last:border-0 sm:flex-row sm:items-center sm:justify-between" data-testid="client-row">
      <div className="min-w-0">
        <div className="flex flex-wrap items-center gap-2">
          <p className="font-semibold text-ink-950">{client.fullName ?? 'Name not set'}</p>
          <StatusBadge status={client.status} />
          <span className="text-xs text-slate-500">Evolution {client.evolutionNumber}</span>
          {client.restingToday && (
            <span className="inline-flex rounded-full bg-sky-100 px-2.5 py-0.5 text-xs font-semibold text-sky-800" data-testid="resting-today">
              {restingTodayLabel[client.restingToday]}
            </span>
          )}
        </div>
        <p className="truncate text-sm text-slate-600">{client.email}</p>
        <p className="text-sm text-slate-600">
          Sparks: <b>{client.sparkCount}</b> · Streak: <b>{client.streakCount}</b>
        </p>
        {client.transformationGoal && <p className="text-sm text-slate-600">Goal: {client.transformationGoal}</p>}
        {client.attention.slipping && <p className="mt-1 text-sm font-medium text-rose-700">{client.attention.reason}</p>}
      </div>
      <div className="flex flex-wrap gap-2 sm:shrink-0 sm:justify-end">
        {client.attention.slipping && <Button onClick={() => onOpen('nudge')}>Draft a nudge</Button>}
        <Button variant="secondary" onClick={() => onOpen('check-in')}>
          Friday check-in
        </Button>
        <Button variant="secondary" onClick={() => onOpen('manage')}>
          Manage Client
        </Button>
      </div>
    </li>
  );
}

export function ClientsTab() {
  const [sort, setSort] = useState<ClientSort>('newest');
  const [adding, setAdding] = useState(false);
  const [opened, setOpened] = useState<{ client: ClientSummary; dialog: ClientDialog } | null>(null);
  const queryClient = useQueryClient();
  const clients = useInfiniteQuery({
    queryKey: coachKeys.clients(sort),
    queryFn: ({ pageParam }) => coachApi.clients(sort, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
  const items = clients.data?.pages.flatMap((page) => page.items) ?? [];
  const reload = () => {
    void queryClient.invalidateQueries({ queryKey: [...coachKeys.all, 'clients'] });
    if (opened) void queryClient.invalidateQueries({ queryKey: coachKeys.client(opened.client.userId) });
  };
  return (
    <Card className="overflow-hidden p-0!">
      <div className="flex flex-col gap-3 border-b border-slate-100 p-4 sm:flex-row sm:items-center sm:justify-between">
        <h2 className="text-lg font-semibold text-ink-950">Client Management</h2>
        <div className="flex flex-col gap-2 sm:flex-row">
          <Select aria-label="Sort clients" value={sort} onChange={(event) => setSort(event.target.value === 'attention' ? 'attention' : 'newest')}>
            <option value="newest">Newest evolution</option>
            <option value="attention">Needs attention</option>
          </Select>
          <Button onClick={() => setAdding(true)}>Add Client Lead</Button>
        </div>
      </div>
      {clients.isPending ? (
        <ListLoading />
      ) : clients.isError ? (
        <ListFailed message="The clients could not be loaded." onRetry={() => void clients.refetch()} />
      ) : items.length === 0 ? (
        <ListEmpty title="No active clients yet" hint="Clients will appear here after completing onboarding" />
      ) : (
        <ul>
          {items.map((client) => (
            <ClientRow key={client.userId} client={client} onOpen={(dialog) => setOpened({ client, dialog })} />
          ))}
        </ul>
      )}
      <ListMore list={clients} />
      <AddClientLeadDialog open={adding} onOpenChange={setAdding} />
      {opened?.dialog === 'manage' && (
        <ManageClientDialog
          client={items.find((client) => client.userId === opened.client.userId) ?? opened.client}
          onClose={() => setOpened(null)}
          onUpdated={reload}
        />
      )}
      {opened?.dialog === 'nudge' && <NudgeDraftDialog client={opened.client} onClose={() => setOpened(null)} />}
      {opened?.dialog === 'check-in' && <FridayCheckInDialog client={opened.client} onClose={() => setOpened(null)} />}
    </Card>
  );
}
