import { type AuditAction, auditActions } from '@spark/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Button } from '../../../ui/button';
import { Card } from '../../../ui/card';
import { Input } from '../../../ui/input';
import { Select } from '../../../ui/select';
import { ListEmpty, ListFailed, ListLoading, ListMore } from '../../../ui/list-states';
import { auditApi, type AuditFilters, auditKeys } from '../api/audit-api';
import { actionLabels, AuditEventItem } from './audit-event-item';

/** The coach dashboard's Audit Log tab (admins only): who did what, to which target and when, newest first. */
export default function AuditLogTab() {
  const [filters, setFilters] = useState<AuditFilters>({});
  const [actor, setActor] = useState('');
  const events = useInfiniteQuery({
    queryKey: auditKeys.page(filters),
    queryFn: ({ pageParam }) => auditApi.list(filters, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
  const items = events.data?.pages.flatMap((page) => page.items) ?? [];
  const applyActor = (event: FormEvent) => {
    event.preventDefault();
    setFilters((current) => ({ ...current, actor: actor.trim() || undefined }));
  };
  return (
    <Card className="overflow-hidden p-0!">
      <div className="space-y-4 border-b border-slate-100 p-4 sm:p-6">
        <div>
          <h2 className="text-xl font-semibold text-ink-950">Audit Log</h2>
          <p className="text-sm text-slate-600">
            Every approval, rejection, client change, access code, campaign and post by an admin or coach, and every refused attempt.
          </p>
        </div>
        <div className="grid gap-3 sm:grid-cols-[16rem_1fr]">
          <label className="text-sm font-medium text-ink-900">
            Action
            <Select
              className="mt-1"
              value={filters.action ?? ''}
              onChange={(event) => setFilters((current) => ({ ...current, action: (event.target.value || undefined) as AuditAction | undefined }))}
            >
              <option value="">All actions</option>
              {auditActions.map((action) => (
                <option key={action} value={action}>
                  {actionLabels[action]}
                </option>
              ))}
            </Select>
          </label>
          <form onSubmit={applyActor} className="text-sm font-medium text-ink-900">
            <label htmlFor="audit-actor">By (e-mail)</label>
            <div className="mt-1 flex gap-2">
              <Input id="audit-actor" type="email" placeholder="coach@example.com" value={actor} onChange={(event) => setActor(event.target.value)} />
              <Button type="submit" variant="secondary">
                Filter
              </Button>
            </div>
          </form>
        </div>
      </div>
      {events.isPending ? (
        <ListLoading />
      ) : events.isError ? (
        <ListFailed message="The audit log could not be loaded." onRetry={() => void events.refetch()} />
      ) : items.length === 0 ? (
        filters.action || filters.actor ? (
          <ListEmpty title="No actions match these filters" hint="Try another action, or another person's e-mail address." />
        ) : (
          <ListEmpty title="No actions recorded yet" hint="Approvals, rejections, client changes and refused attempts will appear here." />
        )
      ) : (
        <ul>
          {items.map((event) => (
            <AuditEventItem key={event.id} event={event} />
          ))}
        </ul>
      )}
      <ListMore list={events} />
    </Card>
  );
}
