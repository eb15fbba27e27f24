import type { ExternalToast } from 'sonner';
import { requestToaster } from './toaster-gate';

type Kind = 'message' | 'success' | 'info' | 'error';

let sonner: Promise<typeof import('sonner')> | undefined;

// Sonner (~10 KiB gzipped) loads with the first toast, not with every screen that might toast: the root layout
// mounts its Toaster then, and sonner shows toasts raised before the Toaster subscribed.
function show(kind: Kind, message: string, data?: ExternalToast): void {
  requestToaster();
  sonner ??= import('sonner');
  void sonner.then(({ toast: sonnerToast }) => (kind === 'message' ? sonnerToast(message, data) : sonnerToast[kind](message, data)));
}

/** `toast('…')`, `toast.success`, `toast.info`, `toast.error`, as sonner's, loading it on first use. */
export const toast = Object.assign((message: string, data?: ExternalToast) => show('message', message, data), {
  success: (message: string, data?: ExternalToast) => show('success', message, data),
  info: (message: string, data?: ExternalToast) => show('info', message, data),
  error: (message: string, data?: ExternalToast) => show('error', message, data),
});
