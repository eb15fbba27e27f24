import { useTransition } from 'react';
import { preloadToasts } from '../ui/toaster';

/**
 * Runs an async action (a form's submit) as a React transition: `isPending` lasts until it settles. A failure goes
 * to `onFailure` (which must not throw), never further: React hands an error that escapes a transition to the
 * route's error boundary, which would replace the whole page. The toaster loads alongside, since an action's answer
 * usually toasts.
 */
export function useAction<Args extends unknown[]>(action: (...args: Args) => Promise<void>, onFailure: (error: unknown) => void | Promise<void>) {
  const [isPending, startTransition] = useTransition();
  const run = (...args: Args) =>
    startTransition(async () => {
      preloadToasts();
      try {
        await action(...args);
      } catch (error) {
        await onFailure(error);
      }
    });
  return { run, isPending };
}
