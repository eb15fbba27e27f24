import { lazy, Suspense } from 'react';
import { Link, type LoaderFunctionArgs, useLoaderData, useParams } from 'react-router-dom';
import { usePageMeta } from '../../../lib/use-page-meta';
import { Card } from '../../../ui/card';
import { Spinner } from '../../../ui/spinner';
import { devLogApi } from '../api/dev-log-api';
import { dateOf, LogShell } from './log-shell';

// marked and DOMPurify are a fifth of a page's script: only an entry's own page loads them.
const MarkdownView = lazy(() => import('./markdown-view').then((module) => ({ default: module.MarkdownView })));

export const loader = ({ params }: LoaderFunctionArgs) => devLogApi.post(params.slug ?? '');

const backToList = (
  <Link to="/log" className="text-sm font-medium text-spark-700 hover:underline">
    ← All entries
  </Link>
);

/** `/log/:slug`: one entry, rendered safely. */
export default function LogPostPage() {
  const post = useLoaderData<typeof loader>();
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

export function ErrorBoundary() {
  const { slug = '' } = useParams();
  usePageMeta({ title: "Developer's Log", description: 'An entry of the Spark developer log.', path: `/log/${slug}` });
  return (
    <LogShell>
      {backToList}
      <p className="mt-8 text-slate-700">This entry does not exist (any more).</p>
    </LogShell>
  );
}
