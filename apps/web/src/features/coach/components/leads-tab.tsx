import type { LeadCounters, LeadStatusFilter } from '@spark/contracts';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { Card } from '../../../ui/card';
import { Input } from '../../../ui/input';
import { ListEmpty, ListFailed, ListLoading, ListMore } from '../../../ui/list-states';
import { coachApi, coachKeys } from '../api/coach-api';
import { LeadRow } from './lead-row';

const counters: { filter: LeadStatusFilter; label: string; value: (counts: LeadCounters) => number }[] = [
  { filter: 'pending', label: 'Pending Review', value: (counts) => counts.pending },
  { filter: 'approved', label: 'Approved', value: (counts) => counts.approved },
  { filter: 'active', label: 'Active Users', value: (counts) => counts.activeUsers },
  { filter: 'rejected', label: 'Rejected', value: (counts) => counts.rejected },
];

function howToSeeEveryLead(counterPressed: boolean, searching: boolean): string {
  if (counterPressed && searching) return 'Clear the search, and press the highlighted counter again, to see every lead.';
  return counterPressed ? 'Press the highlighted counter again to see every lead.' : 'Clear the search to see every lead.';
}

export function LeadsTab({ counts, isAdmin }: { counts: LeadCounters; isAdmin: boolean }) {
  const [filter, setFilter] = useState<LeadStatusFilter>('all');
  const [search, setSearch] = useState('');
  const settledSearch = useDebouncedValue(search);
  const queryClient = useQueryClient();
  const leads = useInfiniteQuery({
    queryKey: coachKeys.leads(filter, settledSearch),
    queryFn: ({ pageParam }) => coachApi.leads(filter, settledSearch, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: coachKeys.all });
  const items = leads.data?.pages.flatMap((page) => page.items) ?? [];
  const counterPressed = filter !== 'all';
  // Blank space is no search: the API leaves it out.
  const searching = settledSearch.trim() !== '';
  return (
    <div className="space-y-6">
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {counters.map((counter) => (
          <button
            key={counter.filter}
            type="button"
            onClick={() => setFilter(filter === counter.filter ? 'all' : counter.filter)}
            aria-pressed={filter === counter.filter}
            className={`rounded-2xl border bg-white p-4 text-left shadow-sm transition hover:border-spark-300 ${filter === counter.filter ? 'border-spark-500 ring-2 ring-spark-200' : 'border-slate-200'}`}
          >
            <p className="text-sm text-slate-600">{counter.label}</p>
            <p className="mt-1 text-3xl font-bold text-ink-950">{counter.value(counts)}</p>
          </button>
        ))}
      </div>
      <Card className="overflow-hidden p-0!">
        <div className="flex flex-col gap-3 border-b border-slate-100 p-4 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm text-slate-600">Review and approve leads to send magic link access to The Spark onboarding</p>
          <Input
            type="search"
            placeholder="Search e-mail or name"
            aria-label="Search leads"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            className="sm:max-w-xs"
          />
        </div>
        {leads.isPending ? (
          <ListLoading />
        ) : leads.isError ? (
          <ListFailed message="The leads could not be loaded." onRetry={() => void leads.refetch()} />
        ) : items.length === 0 ? (
          counterPressed || searching ? (
            <ListEmpty title="No leads match" hint={howToSeeEveryLead(counterPressed, searching)} />
          ) : (
            <ListEmpty title="No leads yet" hint="Leads will appear here when users express interest" />
          )
        ) : (
          <ul>
            {items.map((lead) => (
              <LeadRow key={lead.id} lead={lead} isAdmin={isAdmin} onChanged={refresh} />
            ))}
          </ul>
        )}
        <ListMore list={leads} />
      </Card>
    </div>
  );
}
