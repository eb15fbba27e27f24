import type { LeadInviteResponse } from '@spark/contracts';

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
