import type { MagicLinkRequest } from '@spark/contracts';
import { useTransition } from 'react';
import { preloadToasts, toast } from '../../../ui/toaster';
import { sendMagicLink } from '../api/auth-api';
import { signInErrorToast } from '../api/sign-in-error';

/** Sends a sign-in link; `isPending` lasts until the answer is in. */
export function useSendMagicLink(onSent: () => void) {
  const [isPending, startTransition] = useTransition();
  const send = (request: MagicLinkRequest) =>
    startTransition(async () => {
      preloadToasts();
      try {
        await sendMagicLink(request);
        toast.success('Magic link sent!', { description: 'Check your email for a secure sign-in link' });
        onSent();
      } catch (error) {
        const { title, description } = signInErrorToast(error);
        toast.error(title, { description });
      }
    });
  return { send, isPending };
}
