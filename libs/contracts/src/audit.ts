import { z } from 'zod';
import { actorSchema } from './actor';
import { emailSchema, isoDateTimeSchema, pageOf, textSchema, uuidSchema } from './common';

/**
 * What an admin or coach did. A shipped action is never renamed: the log keeps it forever.
 * A new one also needs its label in the dashboard's Audit Log tab (a missing label does not compile).
 */
export const auditActions = [
  'lead.approve',
  'lead.reject',
  'lead.resend',
  'lead.add-client',
  'client.update',
  'client.private-note',
  'client.nudge',
  'client.ditl-regenerate',
  'client.ditl-edit',
  'client.ditl-reset',
  'client.pause-allowance',
  'client.data-export',
  'user.role-change',
  'investor.add',
  'investor.code-issue',
  'investor.code-reissue',
  'investor.campaign-send',
  'investor.deck-upload',
  'devlog.publish',
  'queues.open',
] as const;
export const auditActionSchema = z.enum(auditActions, { error: 'Unknown action' });
export type AuditAction = z.infer<typeof auditActionSchema>;

export const auditTargetTypes = ['lead', 'client', 'user', 'investor', 'campaign', 'deck', 'post', 'queue-board'] as const;
export type AuditTargetType = (typeof auditTargetTypes)[number];

/** `refused`: the caller was answered 403 (their role may not do it, or not to this target). */
export const auditOutcomes = ['succeeded', 'refused'] as const;

/** Small facts worth keeping beside an action (a new status, a new role), never free text a person wrote. */
export const auditDetailsSchema = z.record(textSchema().max(50), z.union([textSchema().max(200), z.number(), z.boolean(), z.null()]));

/** One recorded action: `auth.record-audit-event` stores it once, whatever number of times it arrives. */
export const auditEventSchema = z
  .object({
    id: uuidSchema,
    /** The request's correlation id, to find its log lines. Not the key: a caller may choose it. */
    correlationId: textSchema().min(1).max(64),
    at: isoDateTimeSchema,
    actor: actorSchema.extend({ email: textSchema().max(254) }),
    action: auditActionSchema,
    target: z.object({
      type: z.enum(auditTargetTypes),
      id: textSchema().max(200).nullable(),
      /** What a reader recognises the target by (a lead's e-mail), as it was when the action happened. */
      label: textSchema().max(254).nullable(),
    }),
    clientIp: textSchema().max(64),
    outcome: z.enum(auditOutcomes),
    details: auditDetailsSchema,
  })
  .strict();
export type AuditEvent = z.infer<typeof auditEventSchema>;
export const recordAuditEventResponseSchema = z.object({ id: uuidSchema, recorded: z.boolean() });

/** An actor is asked for by id or by e-mail. */
const auditActorFilterSchema = z.union([uuidSchema, emailSchema], { error: 'Give an e-mail address or a user id' });

/** Query of `GET /api/admin/audit` and the `auth.list-audit-events` request: newest first, keyset-paginated. */
export const listAuditEventsRequestSchema = z
  .object({
    action: auditActionSchema.optional(),
    actor: auditActorFilterSchema.optional(),
    cursor: textSchema().max(200).optional(),
    limit: z.coerce.number().int().min(1).max(100).default(25),
  })
  .strict();
export type ListAuditEventsRequest = z.input<typeof listAuditEventsRequestSchema>;
export const auditEventPageSchema = pageOf(auditEventSchema);
export type AuditEventPage = z.infer<typeof auditEventPageSchema>;
