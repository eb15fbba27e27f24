import { z } from 'zod';
import { emailSchema, isoDateTimeSchema, mailApprovalSchema, uuidSchema, textSchema } from './common';

export const leadRoles = ['client', 'coach', 'investor'] as const;
export const leadRoleSchema = z.enum(leadRoles, { error: 'Role must be client, coach or investor' });
export type LeadRole = z.infer<typeof leadRoleSchema>;

export const approvalStatuses = ['pending', 'approved', 'rejected'] as const;
export const approvalStatusSchema = z.enum(approvalStatuses);
export type ApprovalStatus = z.infer<typeof approvalStatusSchema>;

/** Challenge ids of the thank-you question (docs/product.md §2). */
export const primaryChallenges = {
  consistency: 'Staying consistent',
  motivation: 'Finding motivation',
  tracking: 'Tracking progress',
  accountability: 'Staying accountable',
} as const;
export const primaryChallengeSchema = z.enum(Object.keys(primaryChallenges) as [keyof typeof primaryChallenges, ...(keyof typeof primaryChallenges)[]]);
export type PrimaryChallenge = z.infer<typeof primaryChallengeSchema>;

/** Body of `POST /api/leads` (the interest form). */
export const createLeadRequestSchema = z
  .object({
    email: emailSchema,
    role: leadRoleSchema.default('client'),
    interest: textSchema().trim().max(2000).nullish(),
  })
  .strict();
export type CreateLeadRequest = z.input<typeof createLeadRequestSchema>;

/**
 * `leads.create`: the form as the gateway received it, with its statement for the notifier that a visitor submitted
 * it (`libs/messaging/src/lead-submissions.ts`). The lead's confirmation and the team's alert carry it, so a
 * compromised leads-service cannot have the product mail an address nobody submitted, nor alert the team of a lead
 * nobody submitted.
 */
export const createLeadCommandSchema = createLeadRequestSchema.extend({ submission: mailApprovalSchema }).strict();
export type CreateLeadCommand = z.input<typeof createLeadCommandSchema>;

export const leadSchema = z.object({
  id: uuidSchema,
  email: z.string(),
  role: leadRoleSchema,
  fullName: z.string().nullable(),
  company: z.string().nullable(),
  interest: z.string().nullable(),
  approvalStatus: approvalStatusSchema,
  primaryChallenge: primaryChallengeSchema.nullable(),
  userCreated: z.boolean(),
  createdAt: isoDateTimeSchema,
});
export type Lead = z.infer<typeof leadSchema>;

/**
 * The answer to a new lead. `challengeToken` is the lead-scoped secret that authorises the
 * thank-you page's challenge update; it is returned once and stored only as a hash.
 */
export const createLeadResponseSchema = z.object({
  lead: leadSchema,
  challengeToken: z.string(),
});
export type CreateLeadResponse = z.infer<typeof createLeadResponseSchema>;

/** Body of `PATCH /api/leads/challenge`. */
export const setChallengeRequestSchema = z
  .object({
    token: textSchema().min(20).max(200),
    primaryChallenge: primaryChallengeSchema,
  })
  .strict();
export type SetChallengeRequest = z.infer<typeof setChallengeRequestSchema>;
