import { infiniteQueryOptions } from '@tanstack/react-query';
import { investorKeys, investorsApi } from './investors-api';

/**
 * The admin's investor list, a page at a time, newest first. The Investors tab and its label share it, so the label
 * costs no request of its own. Apart from investors-api.ts, which /donate loads without TanStack Query.
 */
export const investorPages = infiniteQueryOptions({
  queryKey: investorKeys.all,
  queryFn: ({ pageParam }) => investorsApi.list(pageParam),
  initialPageParam: undefined as string | undefined,
  getNextPageParam: (page) => page.nextCursor ?? undefined,
});
