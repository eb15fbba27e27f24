import { type AccountDeletion, type DeletionPart } from '@spark/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Card } from '../../../ui/card';
import { ListEmpty, ListFailed, ListLoading, ListMore } from '../../../ui/list-states';
import { accountDeletionApi, accountDeletionKeys } from '../api/account-deletion-api';

const partLabels: Record<DeletionPart, string> = {
  auth: 'Account & sessions',
  leads: 'Lead',
  progress: 'Sparks & progress',
  ditl: 'Day in the Life',
  notifier: 'E-mail ledger',
  investor: 'Investor contact',
};

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function DeletionItem({ deletion }: { deletion: AccountDeletion }) {
  const done = deletion.parts.filter((part) => part.doneAt).length;
  return (
    <li className="border-b border-slate-100 p-4 last:border-0 sm:px-6" data-testid="deletion-record">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="font-semibold text-ink-950">Requested {when(deletion.requestedAt)}</p>
        {deletion.completedAt ? (
          <span className="rounded-full bg-emerald-50 px-3 py-1 text-xs font-semibold text-emerald-800">Complete · {when(deletion.completedAt)}</span>
        ) : (
          <span className="rounded-full bg-amber-50 px-3 py-1 text-xs font-semibold text-amber-800">
            In progress · {done} of {deletion.parts.length} parts
          </span>
        )}
      </div>
      <p className="mt-1 font-mono text-xs text-slate-500">Reference {deletion.id}</p>
      <ul className="mt-3 flex flex-wrap gap-2">
        {deletion.parts.map((part) => (
          <li
            key={part.part}
            className={`rounded-lg px-3 py-1 text-xs font-medium ${part.doneAt ? 'bg-slate-100 text-slate-700' : 'bg-amber-100 text-amber-900'}`}
            title={part.doneAt ? `Erased ${when(part.doneAt)}` : 'Waiting for its service'}
          >
            {part.doneAt ? '✓' : '…'} {partLabels[part.part]}
          </li>
        ))}
      </ul>
    </li>
  );
}

/** The coach dashboard's Deletions tab (admins only): each account deletion and which parts are erased. Never whose. */
export default function DeletionsTab() {
  const deletions = useInfiniteQuery({
    queryKey: accountDeletionKeys.all,
    queryFn: ({ pageParam }) => accountDeletionApi.list(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    refetchInterval: 10_000,
  });
  const items = deletions.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <Card className="overflow-hidden p-0!">
      <div className="border-b border-slate-100 p-4 sm:p-6">
        <h2 className="text-xl font-semibold text-ink-950">Account Deletions</h2>
        <p className="text-sm text-slate-600">
          Each confirmed deletion and the parts of Spark that have erased their share. Once every part is done, the record keeps only these dates: not whose
          account it was.
        </p>
      </div>
      {deletions.isPending ? (
        <ListLoading />
      ) : deletions.isError ? (
        <ListFailed message="The deletions could not be loaded." onRetry={() => void deletions.refetch()} />
      ) : items.length === 0 ? (
        <ListEmpty title="No account has been deleted" hint="When someone confirms deleting their account, each part's erasure shows here." />
      ) : (
        <ul>
          {items.map((deletion) => (
            <DeletionItem key={deletion.id} deletion={deletion} />
          ))}
        </ul>
      )}
      <ListMore list={deletions} />
    </Card>
  );
}
