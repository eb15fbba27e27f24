import type { ExternalToast } from 'sonner';
import { requestToaster } from './toaster-gate';

type Kind = 'message' | 'success' | 'info' | 'error';

let sonner: Promise<typeof import('sonner')> | undefined;

// Sonner loads with the first toast, not with every screen that might toast: the root layout
// mounts its Toaster then, and sonner shows toasts raised before the Toaster subscribed.
function loadSonner(): Promise<typeof import('sonner')> {
  requestToaster();
  sonner ??= import('sonner').catch((error: unknown) => {
    // Offline before the chunk was cached: forget the failure so the next toast tries again.
    sonner = undefined;
    throw error;
  });
  return sonner;
}

/**
 * Loads the toaster ahead of the first toast: when a request starts (its answer usually toasts, and the chunk
 * then loads alongside it) and on screens that must toast while offline.
 */
export function preloadToasts(): void {
  loadSonner().catch(() => undefined);
}

function show(kind: Kind, message: string, data?: ExternalToast): void {
  loadSonner()
    .then(({ toast: sonnerToast }) => (kind === 'message' ? sonnerToast(message, data) : sonnerToast[kind](message, data)))
    .catch(() => undefined);
}

/** `toast('…')`, `toast.success`, `toast.info`, `toast.error` and `toast.dismiss`, as sonner's, loading it on first use. */
export const toast = Object.assign((message: string, data?: ExternalToast) => show('message', message, data), {
  success: (message: string, data?: ExternalToast) => show('success', message, data),
  info: (message: string, data?: ExternalToast) => show('info', message, data),
  error: (message: string, data?: ExternalToast) => show('error', message, data),
  /** Takes away the toast shown with this `id`; before any toast sonner is not loaded, and there is none to take. */
  dismiss: (id: string) => {
    sonner?.then(({ toast: sonnerToast }) => sonnerToast.dismiss(id)).catch(() => undefined);
  },
});
