import { z } from 'zod';
import { emailSchema, isoDateTimeSchema, uuidSchema } from './common';

/** `progress.request-export`: queue an export of the client's data; the link goes to `email`. */
export const requestExportRequestSchema = z.object({ userId: uuidSchema, email: emailSchema, requestedBy: uuidSchema }).strict();
export const requestExportResponseSchema = z.object({ queued: z.literal(true) });
export type RequestExportResponse = z.infer<typeof requestExportResponseSchema>;

/** `export` queue, `export-client-data` job: the archive is built from what the services hold when it runs. */
export const exportClientDataJobSchema = z.object({ userId: uuidSchema, email: emailSchema, requestedBy: uuidSchema });

/** `mail` queue, `data-export-ready` job: the signed link to the finished archive. */
export const dataExportReadyJobSchema = z.object({
  email: emailSchema,
  downloadUrl: z.url({ protocol: /^https?$/ }),
  expiresAt: isoDateTimeSchema,
});
