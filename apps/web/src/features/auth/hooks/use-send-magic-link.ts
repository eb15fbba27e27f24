import type { MagicLinkRequest } from '@spark/contracts';
import { useMutation } from '@tanstack/react-query';
import { toast } from '../../../ui/toaster';
import { sendMagicLink } from '../api/auth-api';
import { signInErrorToast } from '../api/sign-in-error';

export function useSendMagicLink(onSent: () => void) {
  return useMutation({
    mutationFn: (request: MagicLinkRequest) => sendMagicLink(request),
    onSuccess: () => {
      toast.success('Magic link sent!', { description: 'Check your email for a secure sign-in link' });
      onSent();
    },
    onError: (error) => {
      const { title, description } = signInErrorToast(error);
      toast.error(title, { description });
    },
  });
}
