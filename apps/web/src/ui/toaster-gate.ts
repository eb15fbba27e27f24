import { useSyncExternalStore } from 'react';

// Sonner is ~10 KiB gzipped and the landing page never toasts, so the Toaster mounts only
// once a screen that can toast has loaded `toaster.tsx`. Sonner replays toasts raised
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
  return useSyncExternalStore(subscribe, () => toasterNeeded, () => false);
}
