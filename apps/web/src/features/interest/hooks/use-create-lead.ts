import type { CreateLeadRequest, CreateLeadResponse } from '@spark/contracts';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { storageKeys, writeStored } from '../../../lib/storage-keys';
import { toast } from '../../../ui/toaster';
import { signOutLocally } from '../../auth/sign-out-locally';
import { createLead } from '../api/leads-api';
import { leadErrorMessage } from '../api/lead-error-message';

function rememberLead({ lead, challengeToken }: CreateLeadResponse): void {
  // A new lead is a new person on this browser: forget whoever was signed in before.
  signOutLocally();
  writeStored(storageKeys.leadEmail, lead.email);
  writeStored(storageKeys.userRole, lead.role);
  writeStored(storageKeys.leadChallengeToken, challengeToken);
}

/** Submits the interest form; on success the visitor lands on the thank-you page. */
export function useCreateLead() {
  const navigate = useNavigate();
  return useMutation({
    mutationFn: (request: CreateLeadRequest) => createLead(request),
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
