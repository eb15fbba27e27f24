import type { CreateLeadRequest } from '@spark/contracts';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';

/** The submit flow's module; importing it twice costs nothing, so every step simply awaits it. */
export const loadLeadSubmission = () => import('./lead-submission');

/** Submits the interest form; on success the visitor lands on the thank-you page. */
export function useCreateLead() {
  const navigate = useNavigate();
  return useMutation({
    mutationFn: async (request: CreateLeadRequest) => (await loadLeadSubmission()).submitLead(request),
    onSuccess: async (response) => {
      (await loadLeadSubmission()).announceLead(response);
      await navigate('/interest/thank-you');
    },
    onError: async (error) => (await loadLeadSubmission()).announceLeadError(error),
  });
}
