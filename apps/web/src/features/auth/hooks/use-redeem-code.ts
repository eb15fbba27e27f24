import type { Session } from '@spark/contracts';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { toast } from '../../../ui/toaster';
import { redeemSignIn } from '../api/auth-api';
import { signInErrorToast } from '../api/sign-in-error';
import { rememberSignIn, signedInContext } from '../remember-sign-in';
import { destinationAfterSignIn } from '../sign-in-routing';

/** Signs in with the e-mailed 6-digit code and continues like the magic-link page does. */
export function useRedeemCode() {
  const navigate = useNavigate();
  return useMutation({
    mutationFn: (request: { email: string; code: string }) => redeemSignIn(request),
    onSuccess: async (session: Session) => {
      rememberSignIn(session, { approved: false });
      const destination = destinationAfterSignIn(signedInContext(session.user), null);
      toast.success('Signed in', { description: destination.welcome });
      await navigate(destination.path, { replace: true });
    },
    onError: (error) => {
      const { title, description } = signInErrorToast(error);
      toast.error(title, { description });
    },
  });
}
