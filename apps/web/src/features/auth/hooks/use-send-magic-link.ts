import type { MagicLinkRequest } from '@spark/contracts';
import { useAction } from '../../../lib/use-action';
import { toast } from '../../../ui/toaster';
import { sendMagicLink } from '../api/auth-api';
import { showSignInError } from '../api/sign-in-error';

/** Sends a sign-in link; `isPending` lasts until the answer is in. */
export function useSendMagicLink(onSent: () => void) {
  const { run: send, isPending } = useAction(async (request: MagicLinkRequest) => {
    await sendMagicLink(request);
    toast.success('Magic link sent!', { description: 'Check your email for a secure sign-in link' });
    onSent();
  }, showSignInError);
  return { send, isPending };
}
