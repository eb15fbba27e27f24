import type { LeadInviteResponse } from '@spark/contracts';
import { ApiError, isRateLimited } from '../../../api/client';

/**
 * A lead action's failure: a 403 says why, a 429 when to try again, and an address whose account has another role
 * what to do instead, in their own words; any other failure gets the message of docs/product.md §8.
 */
export const leadFailureMessage = (error: Error, fallback: string) =>
  error instanceof ApiError && (error.status === 403 || isRateLimited(error) || error.code === 'ACCOUNT_ROLE_DIFFERS') ? error.message : fallback;

/** The alerts after a magic link went out (docs/product.md §2, /coach): copy it in development mode, else say where it went. */
export async function announceInvite(email: string, outcome: Pick<LeadInviteResponse, 'developmentMode' | 'magicLink'>): Promise<void> {
  if (outcome.developmentMode && outcome.magicLink) {
    if (window.confirm(`Development mode: the magic link for ${email} was created.\n\nCopy it to the clipboard?`)) {
      await navigator.clipboard.writeText(outcome.magicLink).catch(() => undefined);
      window.alert('Magic link copied to clipboard!');
    }
    return;
  }
  window.alert(`Magic link sent to ${email}! They can now access the onboarding flow.`);
}
