import type { CreateLeadRequest, CreateLeadResponse } from '@spark/contracts';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { storageKeys, writeStored } from '../../../lib/storage-keys';
import { toast } from '../../../ui/toaster';
import { signOut } from '../../auth/sign-out';
import { createLead } from '../api/leads-api';
import { leadErrorMessage } from '../api/lead-error-message';

function rememberLead({ lead, challengeToken }: CreateLeadResponse): void {
  writeStored(storageKeys.leadEmail, lead.email);
  writeStored(storageKeys.userRole, lead.role);
  writeStored(storageKeys.leadChallengeToken, challengeToken);
}

/** Submits the interest form; on success the visitor lands on the thank-you page. */
export function useCreateLead() {
  const navigate = useNavigate();
  return useMutation({
    mutationFn: async (request: CreateLeadRequest) => {
      // A new lead is a new person on this browser (spec section 4): end whoever's session was here,
      // on the server too. The browser is signed out even when the server cannot be told.
      await signOut();
      return createLead(request);
    },
    onSuccess: async (response) => {
      rememberLead(response);
      toast.success('Thanks!', { description: 'Check your email for next steps' });
      await navigate('/interest/thank-you');
    },
    onError: (error) => {
      const message = leadErrorMessage(error);
      const show = message.kind === 'info' ? toast.info : toast.error;
      show(message.title, { description: message.description });
    },
  });
}
