import { useEffect, useSyncExternalStore } from 'react';
import { pendingSparks, startOutbox, subscribeToOutbox } from '../offline/spark-outbox';

/** The captures still waiting for the server, for this user; starts the background uploads. */
export function useOutbox(userId: string) {
  useEffect(() => {
    void startOutbox(userId);
  }, [userId]);
  return useSyncExternalStore(subscribeToOutbox, pendingSparks);
}
