import { useNavigate } from 'react-router-dom';
import { useAction } from '../../../lib/use-action';
import { toast } from '../../../ui/toaster';
import { redeemSignIn } from '../api/auth-api';
import { showSignInError } from '../api/sign-in-error';
import { rememberSignIn, signedInContext } from '../remember-sign-in';
import { destinationAfterSignIn } from '../sign-in-routing';

/** Signs in with the e-mailed 6-digit code and continues like the magic-link page does. */
export function useRedeemCode() {
  const navigate = useNavigate();
  const { run: redeem, isPending } = useAction(async (request: { email: string; code: string }) => {
    const session = await redeemSignIn(request);
    rememberSignIn(session, { approved: false });
    const destination = destinationAfterSignIn(signedInContext(session.user), null);
    toast.success('Signed in', { description: destination.welcome });
    await navigate(destination.path, { replace: true });
  }, showSignInError);
  return { redeem, isPending };
}
