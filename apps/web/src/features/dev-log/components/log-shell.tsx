import { PublicLayout } from '../../../ui/layout/public-layout';

export const dateOf = (iso: string) => new Date(iso).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

export function LogShell({ children }: { children: React.ReactNode }) {
  return (
    <PublicLayout>
      <section className="min-h-[60vh] bg-slate-50 px-4 py-14 sm:px-6">
        <div className="mx-auto max-w-3xl">{children}</div>
      </section>
    </PublicLayout>
  );
}
