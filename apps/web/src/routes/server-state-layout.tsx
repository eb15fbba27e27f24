import { MutationCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Outlet } from 'react-router-dom';
import { isRateLimited } from '../api/client';
import { currentSessionState, subscribeToSession } from '../features/session/session-store';
import { preloadToasts } from '../ui/toaster';

// One client for the whole session: the cache survives moving between server-backed screens. A failed read is
// asked once more, unless it was refused for a rate limit, which a retry only runs further into.
const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: (failures, error) => failures < 1 && !isRateLimited(error), staleTime: 30_000 } },
  mutationCache: new MutationCache({ onMutate: preloadToasts }),
});

// The cache holds one person's answers: it is emptied as they sign out (or the tab's session ends), before any screen
// renders for whoever comes next.
let cacheOwner: string | null = null;
subscribeToSession(() => {
  const userId = currentSessionState().session?.user.id ?? null;
  if (userId === cacheOwner) return;
  if (cacheOwner !== null) queryClient.clear();
  cacheOwner = userId;
});

/** Wraps the screens whose server state TanStack Query caches: the signed-in screens and the steps after a link. */
export default function ServerStateLayout() {
  return (
    <QueryClientProvider client={queryClient}>
      <Outlet />
    </QueryClientProvider>
  );
}
