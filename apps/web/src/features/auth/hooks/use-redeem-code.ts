import { useTransition } from 'react';
import { useNavigate } from 'react-router-dom';
import { preloadToasts, toast } from '../../../ui/toaster';
import { redeemSignIn } from '../api/auth-api';
import { signInErrorToast } from '../api/sign-in-error';
import { rememberSignIn, signedInContext } from '../remember-sign-in';
import { destinationAfterSignIn } from '../sign-in-routing';

/** Signs in with the e-mailed 6-digit code and continues like the magic-link page does. */
export function useRedeemCode() {
  const navigate = useNavigate();
  const [isPending, startTransition] = useTransition();
  const redeem = (request: { email: string; code: string }) =>
    startTransition(async () => {
      preloadToasts();
      try {
        const session = await redeemSignIn(request);
        rememberSignIn(session, { approved: false });
        const destination = destinationAfterSignIn(signedInContext(session.user), null);
        toast.success('Signed in', { description: destination.welcome });
        await navigate(destination.path, { replace: true });
      } catch (error) {
        const { title, description } = signInErrorToast(error);
        toast.error(title, { description });
      }
    });
  return { redeem, isPending };
}
