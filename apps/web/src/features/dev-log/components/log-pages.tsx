import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { Link, useParams } from 'react-router-dom';
import { usePageMeta } from '../../../lib/use-page-meta';
import { Card } from '../../../ui/card';
import { PublicLayout } from '../../../ui/layout/public-layout';
import { Spinner } from '../../../ui/spinner';
import { devLogApi, devLogKeys } from '../api/dev-log-api';

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

/** `/log`: every published entry, newest first. */
export function LogListPage() {
  usePageMeta({ title: "Developer's Log", description: 'How Spark is being built, entry by entry.', path: '/log' });
  const posts = useQuery({ queryKey: devLogKeys.list, queryFn: devLogApi.list });
  return (
    <LogShell>
      <p className="text-sm font-semibold tracking-widest text-spark-700 uppercase">Building in public</p>
      <h1 className="mt-2 text-4xl font-bold tracking-tight text-ink-950">Developer's Log</h1>
      {posts.isPending && <Spinner className="mt-10" />}
      {posts.isError && <p className="mt-8 text-red-800">The log could not be loaded. Please try again.</p>}
      {posts.data?.items.length === 0 && <p className="mt-8 text-slate-600">No entries yet. Check back soon.</p>}
      <ul className="mt-8 space-y-4">
        {posts.data?.items.map((post) => (
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
    </LogShell>
  );
}

/** `/log/:slug`: one entry, rendered safely. */
export function LogPostPage() {
  const { slug = '' } = useParams();
  const post = useQuery({ queryKey: devLogKeys.post(slug), queryFn: () => devLogApi.post(slug) });
  usePageMeta({
    title: post.data?.title ?? "Developer's Log",
    description: post.data?.excerpt ?? 'An entry of the Spark developer log.',
    path: `/log/${slug}`,
  });
  return (
    <LogShell>
      <Link to="/log" className="text-sm font-medium text-spark-700 hover:underline">
        ← All entries
      </Link>
      {post.isPending && <Spinner className="mt-10" />}
      {post.isError && <p className="mt-8 text-slate-700">This entry does not exist (any more).</p>}
      {post.data && (
        <article className="mt-6">
          <p className="text-sm text-slate-500">{dateOf(post.data.createdAt)}</p>
          <Card className="mt-3 p-6 sm:p-10">
            <Suspense fallback={<Spinner />}>
              <MarkdownView markdown={post.data.markdown} />
            </Suspense>
          </Card>
        </article>
      )}
    </LogShell>
  );
}
