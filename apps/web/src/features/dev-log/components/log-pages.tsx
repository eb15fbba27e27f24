import type { LogPostPage as PublishedPosts } from '@spark/contracts';
import { lazy, Suspense, use } from 'react';
import { Link, type LoaderFunctionArgs, useLoaderData, useParams } from 'react-router-dom';
import { usePageMeta } from '../../../lib/use-page-meta';
import { Card } from '../../../ui/card';
import { PublicLayout } from '../../../ui/layout/public-layout';
import { Spinner } from '../../../ui/spinner';
import { devLogApi } from '../api/dev-log-api';

// marked and DOMPurify are a fifth of a page's script: only an entry's own page loads them.
const MarkdownView = lazy(() => import('./markdown-view').then((module) => ({ default: module.MarkdownView })));

const dateOf = (iso: string) => new Date(iso).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

function LogShell({ children }: { children: React.ReactNode }) {
  return (
    <PublicLayout>
      <section className="min-h-[60vh] bg-slate-50 px-4 py-14 sm:px-6">
        <div className="mx-auto max-w-3xl">{children}</div>
      </section>
    </PublicLayout>
  );
}

// The public log reads through the router's loaders, so a visitor's first page does not download TanStack Query;
// it stays with the signed-in screens, where its cache pays.

/** Not awaited: the heading shows at once, the entries as they arrive. */
export const loadLogList = () => ({ posts: devLogApi.list() });

function LogListHeading() {
  usePageMeta({ title: "Developer's Log", description: 'How Spark is being built, entry by entry.', path: '/log' });
  return (
    <>
      <p className="text-sm font-semibold tracking-widest text-spark-700 uppercase">Building in public</p>
      <h1 className="mt-2 text-4xl font-bold tracking-tight text-ink-950">Developer's Log</h1>
    </>
  );
}

function LogEntries({ posts }: { posts: Promise<PublishedPosts> }) {
  const { items } = use(posts);
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
export function LogListPage() {
  const { posts } = useLoaderData<typeof loadLogList>();
  return (
    <LogShell>
      <LogListHeading />
      <Suspense fallback={<Spinner className="mt-10" />}>
        <LogEntries posts={posts} />
      </Suspense>
    </LogShell>
  );
}

export function LogListError() {
  return (
    <LogShell>
      <LogListHeading />
      <p className="mt-8 text-red-800">The log could not be loaded. Please try again.</p>
    </LogShell>
  );
}

export const loadLogPost = ({ params }: LoaderFunctionArgs) => devLogApi.post(params.slug ?? '');

const backToList = (
  <Link to="/log" className="text-sm font-medium text-spark-700 hover:underline">
    ← All entries
  </Link>
);

/** `/log/:slug`: one entry, rendered safely. */
export function LogPostPage() {
  const post = useLoaderData<typeof loadLogPost>();
  usePageMeta({ title: post.title, description: post.excerpt ?? 'An entry of the Spark developer log.', path: `/log/${post.slug}` });
  return (
    <LogShell>
      {backToList}
      <article className="mt-6">
        <p className="text-sm text-slate-500">{dateOf(post.createdAt)}</p>
        <Card className="mt-3 p-6 sm:p-10">
          <Suspense fallback={<Spinner />}>
            <MarkdownView markdown={post.markdown} />
          </Suspense>
        </Card>
      </article>
    </LogShell>
  );
}

export function LogPostError() {
  const { slug = '' } = useParams();
  usePageMeta({ title: "Developer's Log", description: 'An entry of the Spark developer log.', path: `/log/${slug}` });
  return (
    <LogShell>
      {backToList}
      <p className="mt-8 text-slate-700">This entry does not exist (any more).</p>
    </LogShell>
  );
}
