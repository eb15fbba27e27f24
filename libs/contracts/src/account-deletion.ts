import { z } from 'zod';
import { emailSchema, isoDateTimeSchema, pageOf, pageQuerySchema, sealedSchema, textSchema, uuidSchema } from './common';

/**
 * The parts of Spark that hold something about a client, each erased by its own service. `auth` (the account,
 * sessions, audit log entries) is erased in the confirming transaction; every other part by a job of its own.
 * A shipped part is never renamed: deletion records name it.
 */
export const deletionParts = ['auth', 'leads', 'progress', 'ditl', 'notifier', 'investor'] as const;
export const deletionPartSchema = z.enum(deletionParts);
export type DeletionPart = z.infer<typeof deletionPartSchema>;

/** How long the e-mailed confirmation link works. */
export const DELETION_CONFIRMATION_MINUTES = 30;

/** `auth.request-account-deletion`: e-mails the signed-in client a link that confirms deleting the account. */
export const requestAccountDeletionRequestSchema = z.object({ userId: uuidSchema }).strict();
export const requestAccountDeletionResponseSchema = z.object({ sent: z.literal(true) });

/** The confirmation link's token, as the web page posts it back. */
export const confirmAccountDeletionBodySchema = z.object({ token: textSchema().min(20).max(200) }).strict();
export type ConfirmAccountDeletionBody = z.infer<typeof confirmAccountDeletionBodySchema>;
/** The deletion, and whose account it was: the device it was confirmed on drops what it kept of them. */
export const confirmAccountDeletionResponseSchema = z.object({ deletionId: uuidSchema, userId: uuidSchema });
export type ConfirmAccountDeletionResponse = z.infer<typeof confirmAccountDeletionResponseSchema>;

/** `auth.deletion-subject`: whom an unfinished deletion erases; NOT_FOUND once it is complete. */
export const deletionSubjectRequestSchema = z.object({ deletionId: uuidSchema }).strict();
export const deletionSubjectSchema = z.object({ userId: uuidSchema, email: emailSchema });
export type DeletionSubject = z.infer<typeof deletionSubjectSchema>;

/** `auth.deletion-part-done`: a service reports its part erased. */
export const deletionPartDoneRequestSchema = z.object({ deletionId: uuidSchema, part: deletionPartSchema }).strict();

/** A deletion record as admins see it: never whose account it was, only when and which parts are done. */
export const accountDeletionSchema = z.object({
  id: uuidSchema,
  requestedAt: isoDateTimeSchema,
  completedAt: isoDateTimeSchema.nullable(),
  parts: z.array(z.object({ part: deletionPartSchema, doneAt: isoDateTimeSchema.nullable() })),
});
export type AccountDeletion = z.infer<typeof accountDeletionSchema>;
export const accountDeletionPageSchema = pageOf(accountDeletionSchema);
export type AccountDeletionPage = z.infer<typeof accountDeletionPageSchema>;
export const listAccountDeletionsRequestSchema = pageQuerySchema.extend({ limit: pageQuerySchema.shape.limit.default(25) }).strict();

/** `account-deletion-<part>` queues, `erase-account` job: the part's service looks the subject up by the id. */
export const eraseAccountJobSchema = z.object({ deletionId: uuidSchema });

/** `mail` queue, `account-deletion-confirm` job. */
export const accountDeletionConfirmJobSchema = z.object({
  email: emailSchema,
  expiresAt: isoDateTimeSchema,
  sealed: sealedSchema,
});
/** What the `account-deletion-confirm` job seals: the link deletes the account. */
export const accountDeletionConfirmSecretsSchema = z.object({ confirmUrl: z.url({ protocol: /^https?$/ }) });
