import { ApiError } from '../../../api/client';
import { toast } from '../../../ui/toaster';

export interface SignInErrorToast {
  title: string;
  description: string;
}

/** The sign-in failure toasts (docs/product.md §8): the server's own words when it gave a reason (e.g. 429). */
export function signInErrorToast(error: unknown): SignInErrorToast {
  if (!(error instanceof ApiError)) return { title: 'Something went wrong', description: 'Please try again or contact support' };
  const serverExplained = error.status >= 400 && error.status < 500 && error.message.trim() !== '';
  return { title: 'Sign in failed', description: serverExplained ? error.message : 'Please try again' };
}

/** Toasts why a sign-in request failed. */
export function showSignInError(error: unknown): void {
  const { title, description } = signInErrorToast(error);
  toast.error(title, { description });
}
