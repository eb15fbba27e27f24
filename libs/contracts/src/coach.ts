import { z } from 'zod';
import { actorSchema } from './actor';
import { inviteApprovalSchema, invitedRoleOf, invitedRoleSchema } from './auth';
import { emailSchema, isoDateSchema, isoDateTimeSchema, pageOf, uuidSchema, textSchema } from './common';
import { leadSchema } from './leads';
import { progressSchema } from './progress';

/** Leads-tab filters: the four counters of docs/product.md §2, plus everything. */
export const leadStatusFilters = ['all', 'pending', 'approved', 'active', 'rejected'] as const;
export const leadStatusFilterSchema = z.enum(leadStatusFilters);
export type LeadStatusFilter = z.infer<typeof leadStatusFilterSchema>;

/** Query of `GET /api/coach/leads` and the `leads.list` request: newest first, keyset-paginated. */
export const listLeadsRequestSchema = z
  .object({
    status: leadStatusFilterSchema.default('all'),
    search: textSchema().trim().max(200).optional(),
    cursor: textSchema().max(200).optional(),
    limit: z.coerce.number().int().min(1).max(100).default(25),
  })
  .strict();
export type ListLeadsRequest = z.input<typeof listLeadsRequestSchema>;
export const leadPageSchema = pageOf(leadSchema);
export type LeadPage = z.infer<typeof leadPageSchema>;

/** The Leads tab's counters; investor leads are never counted. */
export const leadCountersSchema = z.object({
  total: z.number().int(),
  pending: z.number().int(),
  approved: z.number().int(),
  activeUsers: z.number().int(),
  rejected: z.number().int(),
});
export type LeadCounters = z.infer<typeof leadCountersSchema>;
export const leadCountersRequestSchema = z.object({}).strict();

/** Approve, resend and reject: the actor's role decides whether it may act on a coach lead. */
export const leadActionRequestSchema = z.object({ leadId: uuidSchema, actor: actorSchema }).strict();

/**
 * Body of approve and resend: the lead as the dashboard showed it. The invitation goes to this address and role only,
 * so what the coach approved is what the auth-service is asked to create (`inviteApprovalSchema`).
 */
export const leadInviteBodySchema = z.object({ email: emailSchema, role: invitedRoleSchema }).strict();
export type LeadInviteBody = z.infer<typeof leadInviteBodySchema>;
/** The approve or resend body for a lead as the dashboard shows it. */
export const leadInviteBodyOf = (lead: { email: string; role: string }): LeadInviteBody => ({ email: lead.email, role: invitedRoleOf(lead.role) });
/** `leads.approve` and `leads.resend`: the action, with the approval the gateway signed for it. */
export const leadInviteRequestSchema = leadActionRequestSchema.extend({ approval: inviteApprovalSchema }).strict();

/** The answer to approve and resend: developmentMode and magicLink (docs/product.md §7), plus the lead. */
export const leadInviteResponseSchema = z.object({
  lead: leadSchema,
  developmentMode: z.boolean(),
  magicLink: z.url().optional(),
  /** True when another click or coach had already approved it: no second user, no second e-mail. */
  alreadyApproved: z.boolean(),
});
export type LeadInviteResponse = z.infer<typeof leadInviteResponseSchema>;

export const customEvolutionDaysSchema = z.coerce
  .number({ error: 'Custom evolution days must be a whole number' })
  .int('Custom evolution days must be a whole number')
  .min(1, 'Between 1 and 365 days')
  .max(365, 'Between 1 and 365 days');

/** Body of `POST /api/coach/leads`: the Add Client Lead modal. Empty days mean the default 90. */
export const addClientLeadBodySchema = z
  .object({
    email: emailSchema,
    customEvolutionDays: customEvolutionDaysSchema.nullish(),
  })
  .strict();
export type AddClientLeadBody = z.input<typeof addClientLeadBodySchema>;
/** `leads.add-client`: who added the lead is in the audit log (and in the approval), not in the lead. */
export const addClientLeadRequestSchema = addClientLeadBodySchema.extend({ approval: inviteApprovalSchema }).strict();

export const addClientLeadResponseSchema = z.object({
  lead: leadSchema,
  /** False when the lead was created but the magic link failed: the coach resends from the Leads tab. */
  inviteSent: z.boolean(),
  developmentMode: z.boolean(),
  magicLink: z.url().optional(),
});
export type AddClientLeadResponse = z.infer<typeof addClientLeadResponseSchema>;

/** `progress.preset-evolution`: the custom length the client's first evolution will use. */
export const presetEvolutionRequestSchema = z.object({ email: emailSchema, customEvolutionDays: customEvolutionDaysSchema }).strict();
export const presetEvolutionResponseSchema = z.object({ email: z.string(), customEvolutionDays: z.number().int() });

export const clientStatuses = ['active', 'paused', 'completed'] as const;
export const clientStatusSchema = z.enum(clientStatuses);
export type ClientStatus = z.infer<typeof clientStatusSchema>;

export const clientSorts = ['newest', 'attention'] as const;
export const clientSortSchema = z.enum(clientSorts);
export type ClientSort = z.infer<typeof clientSortSchema>;

/** Query of `GET /api/coach/clients`: newest evolution first, or who needs attention first. */
export const listClientsRequestSchema = z
  .object({
    sort: clientSortSchema.default('newest'),
    cursor: textSchema().max(200).optional(),
    limit: z.coerce.number().int().min(1).max(100).default(25),
  })
  .strict();
export type ListClientsRequest = z.input<typeof listClientsRequestSchema>;

/** Why a client may need a nudge today, in plain language; null when all is well. */
export const attentionSchema = z.object({
  slipping: z.boolean(),
  reason: z.string().nullable(),
});
export type Attention = z.infer<typeof attentionSchema>;

/** A client row of the dashboard: the client record plus what the coach needs to act on it. */
export const clientSummarySchema = progressSchema.extend({
  email: z.string(),
  daysSinceLastSpark: z.number().int().nullable(),
  /** Today is the client's weekly rest day or a pause day they took: the list says so, and they are not slipping for it. */
  restingToday: z.enum(['rest', 'pause']).nullable(),
  attention: attentionSchema,
});
export type ClientSummary = z.infer<typeof clientSummarySchema>;

export const clientPageSchema = pageOf(clientSummarySchema).extend({ total: z.number().int() });
export type ClientPage = z.infer<typeof clientPageSchema>;

export const clientRequestSchema = z.object({ userId: uuidSchema }).strict();

/** The trends the Overview tab draws, computed from the client's sparks in the current cycle. */
export const clientTrendsSchema = z.object({
  sparksPerDay: z.array(z.object({ date: isoDateSchema, count: z.number().int() })),
  /** Captures by part of the client's day: morning 5-12, afternoon 12-17, evening 17-22, night 22-5. */
  timeOfDay: z.object({ morning: z.number().int(), afternoon: z.number().int(), evening: z.number().int(), night: z.number().int() }),
  /** Captures by weekday, Sunday first. */
  weekdays: z.array(z.number().int()).length(7),
  daysSinceLastSpark: z.number().int().nullable(),
  attention: attentionSchema,
});
export type ClientTrends = z.infer<typeof clientTrendsSchema>;

export const coachNoteItemSchema = z.object({ id: uuidSchema, message: z.string(), isPinned: z.boolean(), createdAt: isoDateTimeSchema });

/** `progress.coach-client`: the record, its trends and the nudges sent so far. */
export const clientDetailSchema = z.object({
  client: clientSummarySchema,
  trends: clientTrendsSchema,
  nudges: z.array(coachNoteItemSchema),
});
export type ClientDetail = z.infer<typeof clientDetailSchema>;

/** Body of `PATCH /api/coach/clients/:userId` (Edit Record). A null custom length means the default 90. */
export const updateClientBodySchema = z
  .object({
    transformationGoal: textSchema().trim().max(2000).nullable().optional(),
    status: clientStatusSchema.optional(),
    customEvolutionDays: customEvolutionDaysSchema.nullable().optional(),
  })
  .strict();
export type UpdateClientBody = z.input<typeof updateClientBodySchema>;
export const updateClientRequestSchema = z.object({ userId: uuidSchema, changes: updateClientBodySchema }).strict();

/** The dashboard header and tab counts in one call. */
export const coachOverviewSchema = z.object({ leads: leadCountersSchema, clients: z.number().int() });
export type CoachOverview = z.infer<typeof coachOverviewSchema>;
export const clientCountRequestSchema = z.object({}).strict();
export const clientCountResponseSchema = z.object({ total: z.number().int() });
