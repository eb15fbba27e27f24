import type { UpcomingRoute } from '../../../routes/upcoming-routes';
import { usePageMeta } from '../../../lib/use-page-meta';
import { Badge } from '../../../ui/badge';
import { ButtonLink } from '../../../ui/button';
import { PublicLayout } from '../../../ui/layout/public-layout';

/** Placeholder for a route of the spec that a later issue builds. */
export default function NotBuiltYetPage({ route }: { route: UpcomingRoute }) {
  usePageMeta({ title: route.name, description: route.purpose, path: route.path });
  return (
    <PublicLayout>
      <div className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center px-4 py-24 text-center">
        <Badge tone="ink">Coming soon</Badge>
        <h1 className="mt-4 text-3xl font-bold tracking-tight text-ink-950">{route.name}</h1>
        <p className="mt-4 text-lg font-semibold text-ink-900">This page is not built yet</p>
        <p className="mt-2 text-slate-600">{route.purpose}</p>
        <ButtonLink to="/" size="lg" className="mt-8">
          Back to home
        </ButtonLink>
      </div>
    </PublicLayout>
  );
}
