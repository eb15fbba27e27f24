import { z } from 'zod';
import { emailSchema, isoDateTimeSchema, sealedSchema, signatureSchema, uuidSchema } from './common';
import { ditlPresentationResponseSchema, ditlStatusResponseSchema } from './ditl';
import { leadSchema } from './leads';

/**
 * The gateway's grant to read one client's part of their export from each service that holds one: the account
 * (auth-service), the Days in the Life (ditl-service), and what the leads- and investor-service keep under the
 * account's e-mail address (their /interest lead, their /donate entry), signed for each of those services alone
 * (`libs/messaging/src/export-grants.ts`). The progress service carries it from the request to the job that builds the
 * archive; it cannot make one up, so it reads no one else's, and the address is the gateway's, not the job's.
 */
export const exportGrantSchema = z
  .object({
    userId: uuidSchema,
    /** The account's address when the export was asked for: what the leads- and investor-service match. */
    email: emailSchema,
    /** Epoch milliseconds, by the gateway's clock. */
    grantedAt: z.number().int().positive(),
    /** One for each service whose part the export reads, with the gateway's key for that service. */
    signatures: z.object({ auth: signatureSchema, ditl: signatureSchema, leads: signatureSchema, investor: signatureSchema }).strict(),
  })
  .strict();
export type ExportGrant = z.infer<typeof exportGrantSchema>;

/**
 * Body of `POST /api/progress/me/export`. `exportId` is chosen by the page, so a press again after an answer that never
 * came (the export may well be queued) is the same export, not a second archive and e-mail.
 */
export const requestExportBodySchema = z.object({ exportId: uuidSchema.optional() }).strict();
export type RequestExportBody = z.infer<typeof requestExportBodySchema>;

/** `progress.request-export`: queue an export of the client's data; the link goes to `email`. */
export const requestExportRequestSchema = z
  .object({ userId: uuidSchema, email: emailSchema, requestedBy: uuidSchema, grant: exportGrantSchema, exportId: uuidSchema.optional() })
  .strict();
/** `estimatedBytes`: what the client's files take, so the web app knows whether to wait for the archive in the page. */
export const requestExportResponseSchema = z.object({ queued: z.literal(true), exportId: uuidSchema, estimatedBytes: z.number().int().nonnegative() });
export type RequestExportResponse = z.infer<typeof requestExportResponseSchema>;

/** Where every export archive is kept in the sparks bucket. */
export const EXPORTS_PREFIX = 'exports/';
/** Where a client's archives are stored; their export e-mail's link must lead there. */
export const exportPrefix = (userId: string) => `${EXPORTS_PREFIX}${userId}/`;

/** Exports whose files take at most this are waited for in the page, which then offers the download at once. */
export const IMMEDIATE_EXPORT_MAX_BYTES = 50 * 1024 * 1024;

/**
 * `export` queue, `export-client-data` job: the archive is built from what the services hold when it runs, once per
 * request (`exportId`, a row of progress.data_exports).
 */
export const exportClientDataJobSchema = z.object({
  userId: uuidSchema,
  email: emailSchema,
  requestedBy: uuidSchema,
  exportId: uuidSchema,
  grant: exportGrantSchema,
});

/**
 * `auth.export-account`, `ditl.export-presentation`, `leads.export-lead`, `investor.export-investor`: the client's part,
 * for the export the grant names.
 */
export const exportedPartRequestSchema = z.object({ userId: uuidSchema, grant: exportGrantSchema }).strict();
/**
 * `ditl.export-presentation` asks for one finished Day in the Life at a time, newest first, so neither side holds
 * every page at once: `before` is the generation of the previous answer, asked while its `next` names an older one.
 */
export const exportedDitlRequestSchema = exportedPartRequestSchema.extend({ before: uuidSchema.optional() }).strict();
/** One of the client's finished Days in the Life (nulls when there is none), the answers and plan it came from, and the next older one. */
export const exportedDitlSchema = z.object({
  generation: ditlStatusResponseSchema.nullable(),
  html: ditlPresentationResponseSchema.shape.html.nullable(),
  answers: z.unknown().optional(),
  plan: z.unknown().optional(),
  next: uuidSchema.nullable().optional(),
});
export type ExportedDitl = z.infer<typeof exportedDitlSchema>;

/** `progress.get-export`: one of the client's own exports; a link to download it once it is ready. */
export const getExportRequestSchema = z.object({ userId: uuidSchema, exportId: uuidSchema }).strict();
export const exportStatusSchema = z.object({
  status: z.enum(['preparing', 'ready']),
  downloadUrl: z.url({ protocol: /^https?$/ }).nullable(),
  expiresAt: isoDateTimeSchema.nullable(),
});
export type ExportStatus = z.infer<typeof exportStatusSchema>;

/** `mail` queue, `data-export-ready` job: the signed link to the finished archive, for the client's account. */
export const dataExportReadyJobSchema = z.object({
  userId: uuidSchema,
  email: emailSchema,
  expiresAt: isoDateTimeSchema,
  sealed: sealedSchema,
});
/** What the `data-export-ready` job seals: the link downloads all of the client's data. */
export const dataExportReadySecretsSchema = z.object({ downloadUrl: z.url({ protocol: /^https?$/ }) });

/** `leads.export-lead`: the lead stored under the grant's address (an /interest submission, or a coach's), or null. */
export const exportedLeadSchema = leadSchema.nullable();
export type ExportedLead = z.infer<typeof exportedLeadSchema>;

/** The most campaign deliveries one export lists: more than any investor contact receives, and a bound on the answer. */
export const EXPORTED_DELIVERIES_MAX = 1000;
/** `investor.export-investor`: the /donate entry (or an admin's) under the grant's address, or null. The deck code is kept only as a hash, so only whether one was issued. */
export const exportedInvestorSchema = z
  .object({
    email: z.string(),
    interest: z.string().nullable(),
    createdAt: isoDateTimeSchema,
    lastEmailSentAt: isoDateTimeSchema.nullable(),
    deckCode: z
      .object({ issuedAt: isoDateTimeSchema, expiresAt: isoDateTimeSchema, lastUsedAt: isoDateTimeSchema.nullable(), uses: z.number().int() })
      .nullable(),
    campaignDeliveries: z
      .array(z.object({ subject: z.string(), status: z.string(), queuedAt: isoDateTimeSchema, finishedAt: isoDateTimeSchema.nullable() }))
      .max(EXPORTED_DELIVERIES_MAX),
  })
  .nullable();
export type ExportedInvestor = z.infer<typeof exportedInvestorSchema>;
