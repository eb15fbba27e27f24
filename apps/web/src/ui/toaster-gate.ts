import { useSyncExternalStore } from 'react';

// Sonner is a sizeable share of a page's script and most screens never toast, so the Toaster mounts only
// once something has toasted (`toaster.ts`). Sonner replays toasts raised
// before its Toaster subscribed, so nothing is lost.
let toasterNeeded = false;
const listeners = new Set<() => void>();

export function requestToaster(): void {
  if (toasterNeeded) return;
  toasterNeeded = true;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useToasterNeeded(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => toasterNeeded,
    () => false,
  );
}
