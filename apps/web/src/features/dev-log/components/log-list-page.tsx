import { use } from 'react';
import { Link, useLoaderData } from 'react-router-dom';
import { LoadedInBrowser } from '../../../lib/loaded-in-browser';
import { usePageMeta } from '../../../lib/use-page-meta';
import { Card } from '../../../ui/card';
import { Spinner } from '../../../ui/spinner';
import { devLogApi } from '../api/dev-log-api';
import { dateOf, LogShell } from './log-shell';

// The public log reads through the router's loaders, so a visitor's first page does not download TanStack Query;
// it stays with the signed-in screens, where its cache pays.

/** Not awaited: the heading shows at once, the entries as they arrive. */
export const loader = () => ({ posts: devLogApi.list() });

function LogListHeading() {
  usePageMeta({ title: "Developer's Log", description: 'How Spark is being built, entry by entry.', path: '/log' });
  return (
    <>
      <p className="text-sm font-semibold tracking-widest text-spark-700 uppercase">Building in public</p>
      <h1 className="mt-2 text-4xl font-bold tracking-tight text-ink-950">Developer's Log</h1>
    </>
  );
}

function LogEntries() {
  const { items } = use(useLoaderData<typeof loader>().posts);
  if (items.length === 0) return <p className="mt-8 text-slate-600">No entries yet. Check back soon.</p>;
  return (
    <ul className="mt-8 space-y-4">
      {items.map((post) => (
        <li key={post.id}>
          <Link to={`/log/${post.slug}`} className="block rounded-2xl focus-visible:outline-3 focus-visible:outline-spark-500">
            <Card className="transition-shadow hover:shadow-lg">
              <p className="text-sm text-slate-500">{dateOf(post.createdAt)}</p>
              <h2 className="mt-1 text-xl font-semibold text-ink-950">{post.title}</h2>
              {post.excerpt && <p className="mt-2 text-slate-600">{post.excerpt}</p>}
            </Card>
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** `/log`: every published entry, newest first. */
export default function LogListPage() {
  return (
    <LogShell>
      <LogListHeading />
      <LoadedInBrowser fallback={<Spinner className="mt-10" />}>
        <LogEntries />
      </LoadedInBrowser>
    </LogShell>
  );
}

export function ErrorBoundary() {
  return (
    <LogShell>
      <LogListHeading />
      <p className="mt-8 text-red-800">The log could not be loaded. Please try again.</p>
    </LogShell>
  );
}
