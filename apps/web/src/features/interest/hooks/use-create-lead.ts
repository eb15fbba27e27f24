import type { CreateLeadRequest } from '@spark/contracts';
import { useTransition } from 'react';
import { useNavigate } from 'react-router-dom';
import { preloadToasts } from '../../../ui/toaster';

/** The submit flow's module; importing it twice costs nothing, so every step simply awaits it. */
export const loadLeadSubmission = () => import('./lead-submission');

/** Submits the interest form; on success the visitor lands on the thank-you page. */
export function useCreateLead() {
  const navigate = useNavigate();
  const [isPending, startTransition] = useTransition();
  const createLead = (request: CreateLeadRequest) =>
    startTransition(async () => {
      preloadToasts();
      const submission = await loadLeadSubmission();
      try {
        submission.announceLead(await submission.submitLead(request));
        await navigate('/interest/thank-you');
      } catch (error) {
        submission.announceLeadError(error);
      }
    });
  return { createLead, isPending };
}
