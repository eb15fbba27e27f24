import type { PrimaryChallenge } from '@spark/contracts';
import { useMutation } from '@tanstack/react-query';
import { readStored, storageKeys } from '../../../lib/storage-keys';
import { toast } from '../../../ui/toaster';
import { setLeadChallenge } from '../api/leads-api';

/** Saves the thank-you page's answer, authorised by the lead-scoped token from sign-up. */
export function useSetChallenge() {
  return useMutation({
    mutationFn: async (primaryChallenge: PrimaryChallenge) => {
      const token = readStored(storageKeys.leadChallengeToken);
      if (!token) throw new Error('No challenge token stored for this lead');
      return setLeadChallenge({ token, primaryChallenge });
    },
    onSuccess: () => {
      toast.success('Got it!', { description: "We'll tailor our approach to help with that." });
    },
    // The visitor shared something personal; thank them even when saving fails.
    onError: () => {
      toast('Noted!', { description: 'Thanks for sharing that with us.' });
    },
  });
}
