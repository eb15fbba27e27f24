import { usePageMeta } from '../../../lib/use-page-meta';
import { ButtonLink } from '../../../ui/button';
import { PublicLayout } from '../../../ui/layout/public-layout';

export default function NotFoundPage() {
  usePageMeta({ title: 'Page not found', description: 'This page does not exist. Head back to Spark to start your evolution.', path: '/404' });
  return (
    <PublicLayout>
      <div className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center px-4 py-24 text-center">
        <p className="text-7xl font-bold text-spark-500">404</p>
        <h1 className="mt-4 text-3xl font-bold tracking-tight text-ink-950">Oops! Page not found</h1>
        <p className="mt-3 text-slate-600">The page you were looking for moved, or never existed. Your evolution continues at home.</p>
        <ButtonLink to="/" size="lg" className="mt-8">
          Return to Home
        </ButtonLink>
      </div>
    </PublicLayout>
  );
}
