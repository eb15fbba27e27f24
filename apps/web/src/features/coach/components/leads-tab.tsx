import { type Lead, type LeadCounters, type LeadStatusFilter, primaryChallenges } from '@spark/contracts';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useDeferredValue, useState } from 'react';
import { Button } from '../../../ui/button';
import { Card } from '../../../ui/card';
import { Input } from '../../../ui/input';
import { Spinner } from '../../../ui/spinner';
import { coachApi, coachKeys, formatDateTime } from '../api/coach-api';
import { announceInvite } from './invite-outcome';

const counters: { filter: LeadStatusFilter; label: string; value: (counts: LeadCounters) => number }[] = [
  { filter: 'pending', label: 'Pending Review', value: (counts) => counts.pending },
  { filter: 'approved', label: 'Approved', value: (counts) => counts.approved },
  { filter: 'active', label: 'Active Users', value: (counts) => counts.activeUsers },
  { filter: 'rejected', label: 'Rejected', value: (counts) => counts.rejected },
];

/** Badge precedence of spec section 4. */
function LeadBadge({ lead }: { lead: Lead }) {
  const [label, tone] = lead.userCreated
    ? ['User Created', 'bg-emerald-100 text-emerald-800']
    : lead.approvalStatus === 'approved'
      ? ['Approved', 'bg-sky-100 text-sky-800']
      : lead.approvalStatus === 'rejected'
        ? ['Rejected', 'bg-rose-100 text-rose-800']
        : ['Pending Review', 'bg-spark-100 text-spark-800'];
  return <span className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold ${tone}`}>{label}</span>;
}

function LeadRow({ lead, onChanged }: { lead: Lead; onChanged: () => void }) {
  const approve = useMutation({
    mutationFn: () => coachApi.approve(lead.id),
    onSuccess: async (outcome) => {
      onChanged();
      if (!outcome.alreadyApproved) await announceInvite(lead.email, outcome);
    },
    onError: () => window.alert('Failed to approve lead. Please try again.'),
  });
  const reject = useMutation({ mutationFn: () => coachApi.reject(lead.id), onSuccess: onChanged, onError: () => window.alert('Failed to reject lead. Please try again.') });
  const resend = useMutation({
    mutationFn: () => coachApi.resend(lead.id),
    onSuccess: async (outcome) => {
      onChanged();
      await announceInvite(lead.email, outcome);
    },
    onError: () => window.alert('An unexpected error occurred. Please try again.'),
  });
  const busy = approve.isPending || reject.isPending || resend.isPending;
  return (
    <li className="flex flex-col gap-3 border-b border-slate-100 p-4 last:border-0 sm:flex-row sm:items-center sm:justify-between" data-testid="lead-row">
      <div className="min-w-0">
        <div className="flex flex-wrap items-center gap-2">
          <p className="font-semibold text-ink-950">{lead.fullName ?? 'Name not provided'}</p>
          <LeadBadge lead={lead} />
        </div>
        <p className="truncate text-sm text-slate-600">{lead.email}</p>
        <p className="mt-1 text-sm text-slate-600">
          <span className="font-medium text-slate-700">Primary Challenge:</span> {lead.primaryChallenge ? primaryChallenges[lead.primaryChallenge] : 'Not specified'}
        </p>
        <p className="text-xs text-slate-500">Submitted: {formatDateTime(lead.createdAt)}</p>
      </div>
      <div className="grid shrink-0 grid-cols-[1fr_auto] gap-2 sm:flex">
        {lead.approvalStatus === 'pending' && (
          <>
            <Button onClick={() => approve.mutate()} disabled={busy}>
              {approve.isPending ? 'Processing...' : 'Approve & Send Magic Link'}
            </Button>
            <Button variant="secondary" onClick={() => reject.mutate()} disabled={busy}>
              Reject
            </Button>
          </>
        )}
        {lead.approvalStatus === 'approved' && !lead.userCreated && (
          <Button variant="secondary" onClick={() => resend.mutate()} disabled={busy}>
            {resend.isPending ? 'Sending...' : 'Resend Magic Link'}
          </Button>
        )}
      </div>
    </li>
  );
}

export function LeadsTab({ counts }: { counts: LeadCounters }) {
  const [filter, setFilter] = useState<LeadStatusFilter>('all');
  const [search, setSearch] = useState('');
  const deferredSearch = useDeferredValue(search);
  const queryClient = useQueryClient();
  const leads = useInfiniteQuery({
    queryKey: coachKeys.leads(filter, deferredSearch),
    queryFn: ({ pageParam }) => coachApi.leads(filter, deferredSearch, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: coachKeys.all });
  const items = leads.data?.pages.flatMap((page) => page.items) ?? [];
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
          <Input type="search" placeholder="Search e-mail or name" aria-label="Search leads" value={search} onChange={(event) => setSearch(event.target.value)} className="sm:max-w-xs" />
        </div>
        {leads.isPending ? (
          <div className="flex justify-center p-10"><Spinner /></div>
        ) : items.length === 0 ? (
          <div className="p-10 text-center">
            <p className="font-semibold text-ink-950">No leads yet</p>
            <p className="text-sm text-slate-600">Leads will appear here when users express interest</p>
          </div>
        ) : (
          <ul>{items.map((lead) => <LeadRow key={lead.id} lead={lead} onChanged={refresh} />)}</ul>
        )}
        {leads.hasNextPage && (
          <div className="border-t border-slate-100 p-4 text-center">
            <Button variant="secondary" onClick={() => void leads.fetchNextPage()} disabled={leads.isFetchingNextPage}>
              {leads.isFetchingNextPage ? 'Loading...' : 'Load more'}
            </Button>
          </div>
        )}
      </Card>
    </div>
  );
}
