import * as Tabs from '@radix-ui/react-tabs';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { Button } from '../../../ui/button';
import { ListLoading } from '../../../ui/list-states';
import { Spinner } from '../../../ui/spinner';
import { toast } from '../../../ui/toaster';
import { SignOutEverywhereButton } from '../../auth/components/sign-out-everywhere-section';
import { investorPages } from '../../investors/api/investor-pages';
import { useSession } from '../../session';
import { coachApi, coachKeys } from '../api/coach-api';
import { ClientsTab } from './clients-tab';
import { CoachGuard } from './coach-guard';
import { LeadsTab } from './leads-tab';
import { QueuesButton } from './queues-button';

// Admin-only tabs: a coach never downloads them.
const InvestorsTab = lazy(() => import('../../investors/components/investors-tab'));
const DevLogTab = lazy(() => import('../../dev-log/components/dev-log-tab'));
const TeamTab = lazy(() => import('../../team/components/team-tab'));
const AuditLogTab = lazy(() => import('../../audit/components/audit-log-tab'));
const DeletionsTab = lazy(() => import('../../account-deletion/components/deletions-tab'));

/** "Investors (n)": the same query as the tab itself, so opening the tab costs no second request. */
function InvestorsTabLabel() {
  const investors = useInfiniteQuery(investorPages);
  const total = investors.data?.pages[0]?.total;
  return <>Investors{total === undefined ? '' : ` (${total})`}</>;
}

const tabClass =
  'whitespace-nowrap rounded-lg px-4 py-2 text-sm font-semibold text-slate-600 transition data-[state=active]:bg-white data-[state=active]:text-ink-950 data-[state=active]:shadow';

function Dashboard() {
  const { user, signOut } = useSession();
  const overview = useQuery({ queryKey: coachKeys.overview(), queryFn: coachApi.overview });
  const isAdmin = user?.user_metadata.role === 'admin';
  const counts = overview.data;
  const handleSignOut = async () => {
    toast.success('Signed out successfully');
    await signOut();
  };
  if (!counts)
    return (
      <div className="flex min-h-screen items-center justify-center">
        <Spinner />
      </div>
    );
  return (
    <div className="min-h-screen bg-slate-50">
      <header className="bg-ink-950 text-white">
        <div className="mx-auto flex max-w-6xl items-start justify-between gap-4 px-4 py-6 sm:items-center">
          <div>
            <h1 className="text-2xl font-bold">Coach Dashboard</h1>
            <p className="text-sm text-spark-200">Guide every transformation, one spark at a time.</p>
            <p className="mt-2 text-sm text-slate-300">
              Lead Management · <span data-testid="lead-total">{counts.leads.total}</span> total leads
            </p>
          </div>
          <div className="flex shrink-0 flex-col gap-2 sm:flex-row">
            {isAdmin && <QueuesButton />}
            <SignOutEverywhereButton />
            <Button variant="inverse" onClick={() => void handleSignOut()}>
              Sign Out
            </Button>
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-6xl px-4 py-6">
        <Tabs.Root defaultValue="leads">
          <Tabs.List className="mb-6 flex gap-1 overflow-x-auto rounded-xl bg-slate-200/70 p-1" aria-label="Dashboard sections">
            <Tabs.Trigger value="leads" className={tabClass}>
              Leads ({counts.leads.total})
            </Tabs.Trigger>
            <Tabs.Trigger value="clients" className={tabClass}>
              Clients ({counts.clients})
            </Tabs.Trigger>
            {isAdmin && (
              <Tabs.Trigger value="investors" className={tabClass}>
                <InvestorsTabLabel />
              </Tabs.Trigger>
            )}
            {isAdmin && (
              <Tabs.Trigger value="dev-log" className={tabClass}>
                Developer's Log
              </Tabs.Trigger>
            )}
            {isAdmin && (
              <Tabs.Trigger value="team" className={tabClass}>
                Team
              </Tabs.Trigger>
            )}
            {isAdmin && (
              <Tabs.Trigger value="audit" className={tabClass}>
                Audit Log
              </Tabs.Trigger>
            )}
            {isAdmin && (
              <Tabs.Trigger value="deletions" className={tabClass}>
                Deletions
              </Tabs.Trigger>
            )}
          </Tabs.List>
          <Tabs.Content value="leads">
            <LeadsTab counts={counts.leads} isAdmin={isAdmin} />
          </Tabs.Content>
          <Tabs.Content value="clients">
            <ClientsTab />
          </Tabs.Content>
          {isAdmin && (
            <Suspense fallback={<ListLoading />}>
              <Tabs.Content value="investors">
                <InvestorsTab />
              </Tabs.Content>
              <Tabs.Content value="dev-log">
                <DevLogTab />
              </Tabs.Content>
              <Tabs.Content value="team">
                <TeamTab />
              </Tabs.Content>
              <Tabs.Content value="audit">
                <AuditLogTab />
              </Tabs.Content>
              <Tabs.Content value="deletions">
                <DeletionsTab />
              </Tabs.Content>
            </Suspense>
          )}
        </Tabs.Root>
      </main>
    </div>
  );
}

/** /coach: coaches and admins review leads and guide clients. */
export default function CoachDashboardPage() {
  return (
    <CoachGuard>
      <Dashboard />
    </CoachGuard>
  );
}
