// What submitting the interest form needs beyond the page: zod and the contracts, the API client,
// sign-out and the toaster. Loaded on the visitor's first focus or submit (use-create-lead.ts), so
// the prerendered /interest hydrates without evaluating any of it.
import { type CreateLeadRequest, createLeadRequestSchema, type CreateLeadResponse } from '@spark/contracts';
import { storageKeys, writeStored } from '../../../lib/storage-keys';
import { toast } from '../../../ui/toaster';
import { signOut } from '../../auth/sign-out';
import { createLead } from '../api/leads-api';
import { leadErrorMessage } from '../api/lead-error-message';

export type LeadFormCheck = { ok: true; request: CreateLeadRequest } | { ok: false; emailError: string };

export function checkLeadForm(fields: { email: string; role: string }): LeadFormCheck {
  const parsed = createLeadRequestSchema.safeParse(fields);
  if (parsed.success) return { ok: true, request: parsed.data };
  return { ok: false, emailError: parsed.error.issues[0]?.message ?? 'Enter a valid email address' };
}

export async function submitLead(request: CreateLeadRequest): Promise<CreateLeadResponse> {
  // A new lead is a new person on this browser (docs/product.md §4): end whoever's session was here,
  // on the server too. The browser is signed out even when the server cannot be told. Creating a lead
  // needs no session, so both requests travel at once and the visitor waits for one round trip, not two.
  const [, created] = await Promise.all([signOut(), createLead(request)]);
  return created;
}

export function announceLead({ lead, challengeToken }: CreateLeadResponse): void {
  writeStored(storageKeys.leadEmail, lead.email);
  writeStored(storageKeys.userRole, lead.role);
  writeStored(storageKeys.leadChallengeToken, challengeToken);
  toast.success('Thanks!', { description: 'Check your email for next steps' });
}

export function announceLeadError(error: unknown): void {
  const message = leadErrorMessage(error);
  const show = message.kind === 'info' ? toast.info : toast.error;
  show(message.title, { description: message.description });
}
