import { type HomeResponse, homeResponseSchema } from '@spark/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { z } from 'zod';
import { readStored, storageKeys, writeStored } from '../../../lib/storage-keys';
import { fetchHome, homeQueryKeyOf } from '../api/client-app-api';

const snapshotSchema = z.object({
  userId: z.string(),
  fullName: z.string().nullable(),
  goal: z.string().nullable(),
  home: homeResponseSchema,
});
/** What the home needs to open without a network: the last answer and who it belongs to. */
export type HomeSnapshot = z.infer<typeof snapshotSchema>;

export function readHomeSnapshot(): HomeSnapshot | null {
  try {
    const parsed = snapshotSchema.safeParse(JSON.parse(readStored(storageKeys.clientHomeSnapshot) ?? 'null'));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * The home data of the signed-in user, seeded from the snapshot so a bad connection shows the last numbers. Opened from
 * the snapshot without a session (`signedIn` false), it is asked for again once the session comes back.
 */
export function useHome(owner: { userId: string; fullName: string | null; goal: string | null }, signedIn: boolean) {
  const snapshot = readHomeSnapshot();
  const query = useQuery<HomeResponse>({
    queryKey: homeQueryKeyOf(owner.userId),
    queryFn: () => fetchHome(owner.userId),
    initialData: snapshot?.userId === owner.userId ? snapshot.home : undefined,
    initialDataUpdatedAt: 0,
    networkMode: 'offlineFirst',
  });
  const { refetch } = query;
  const wasSignedIn = useRef(signedIn);
  useEffect(() => {
    if (signedIn && !wasSignedIn.current) void refetch();
    wasSignedIn.current = signedIn;
  }, [signedIn, refetch]);
  const { userId, fullName, goal } = owner;
  useEffect(() => {
    if (!query.data) return;
    const next: HomeSnapshot = { userId, fullName, goal, home: query.data };
    writeStored(storageKeys.clientHomeSnapshot, JSON.stringify(next));
  }, [query.data, userId, fullName, goal]);
  return query;
}
