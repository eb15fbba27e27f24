import type { CreateLeadRequest } from '@spark/contracts';
import { useNavigate } from 'react-router-dom';
import { useAction } from '../../../lib/use-action';

/** The submit flow's module; importing it twice costs nothing, so every step simply awaits it. */
export const loadLeadSubmission = () => import('./lead-submission');

/** Submits the interest form; on success the visitor lands on the thank-you page. */
export function useCreateLead() {
  const navigate = useNavigate();
  const { run: createLead, isPending } = useAction(
    async (request: CreateLeadRequest) => {
      const submission = await loadLeadSubmission();
      submission.announceLead(await submission.submitLead(request));
      await navigate('/interest/thank-you');
    },
    async (error) => (await loadLeadSubmission()).announceLeadError(error),
  );
  return { createLead, isPending };
}
