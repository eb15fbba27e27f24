import { Button } from './button';
import { Spinner } from './spinner';

// What a list on the dashboard shows in place of its rows. A failed load has its own state: shown as the empty one,
// an outage would tell the coach there is nothing to do.

export function ListLoading() {
  return (
    <div className="flex justify-center p-10">
      <Spinner />
    </div>
  );
}

/** Why the list is missing, with a way to ask again. */
export function ListFailed({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div role="alert" className="flex flex-col items-center gap-3 p-10 text-center">
      <p className="text-red-800">{message}</p>
      <Button variant="secondary" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}

export function ListEmpty({ title, hint }: { title: string; hint: string }) {
  return (
    <div className="p-10 text-center">
      <p className="font-semibold text-ink-950">{title}</p>
      <p className="text-sm text-slate-600">{hint}</p>
    </div>
  );
}

interface PagedList {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

/** "Load more" under a list with pages still to load; nothing once the last one is in. */
export function ListMore({ list }: { list: PagedList }) {
  if (!list.hasNextPage) return null;
  return (
    <div className="border-t border-slate-100 p-4 text-center">
      <Button variant="secondary" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
        {list.isFetchingNextPage ? 'Loading...' : 'Load more'}
      </Button>
    </div>
  );
}
