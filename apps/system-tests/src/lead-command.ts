import { developmentSigningKeys } from '@spark/config';
import { type CreateLeadCommand, emailSchema, type LeadRole } from '@spark/contracts';
import { signedLeadSubmission } from '@spark/messaging';

/** `leads.create` as the gateway sends it for a visitor's form (without words of interest): with its signed statement of the form. */
export const leadCommand = (email: string, role: LeadRole = 'client'): CreateLeadCommand => ({
  email,
  role,
  submission: signedLeadSubmission(developmentSigningKeys(), { email: emailSchema.parse(email), role }),
});
