import { type HomeResponse, homeResponseSchema } from '@spark/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { z } from 'zod';
import { readStored, storageKeys, writeStored } from '../../../lib/storage-keys';
import { fetchHome, homeQueryKey } from '../api/client-app-api';

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

/** The home data of the signed-in user, seeded from the snapshot so a bad connection shows the last numbers. */
export function useHome(owner: { userId: string; fullName: string | null; goal: string | null }) {
  const snapshot = readHomeSnapshot();
  const query = useQuery<HomeResponse>({
    queryKey: homeQueryKey,
    queryFn: fetchHome,
    initialData: snapshot?.userId === owner.userId ? snapshot.home : undefined,
    initialDataUpdatedAt: 0,
    networkMode: 'offlineFirst',
  });
  const { userId, fullName, goal } = owner;
  useEffect(() => {
    if (!query.data) return;
    const next: HomeSnapshot = { userId, fullName, goal, home: query.data };
    writeStored(storageKeys.clientHomeSnapshot, JSON.stringify(next));
  }, [query.data, userId, fullName, goal]);
  return query;
}
