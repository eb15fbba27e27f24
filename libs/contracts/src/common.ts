import { z } from 'zod';

// Half of a UTF-16 surrogate pair without the other half: no character at all. A text column would
// store U+FFFD instead, jsonb refuses it.
// (No lookbehind: the web app shares this module, and older Safari cannot parse one.)
const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?:^|[^\ud800-\udbff])[\udc00-\udfff]/;

/** Whether PostgreSQL can store `text` as it is: no U+0000 and no lone surrogate. */
export const isStorableText = (text: string): boolean => !text.includes('\u0000') && !loneSurrogate.test(text);

export const UNSTORABLE_TEXT_MESSAGE = 'Contains characters that cannot be saved (a null character or half an emoji). Please retype it.';

/**
 * The start of every string schema of a request, body, query, bus message or job: text PostgreSQL can
 * store, else a field error. Chain the field's own rules after it.
 */
export const textSchema = (params?: { error: string }) => z.string(params).refine(isStorableText, UNSTORABLE_TEXT_MESSAGE);

/** E-mails are compared and stored trimmed and lower-cased (one address, one account). */
export const emailSchema = textSchema({ error: 'Email is required' })
  .trim()
  .toLowerCase()
  .min(1, 'Email is required')
  .max(254, 'Email is too long')
  .pipe(z.email({ error: 'Enter a valid email address' }));

export const uuidSchema = z.uuid();

/**
 * The `Idempotency-Key` header of a command a person may press again after its answer was lost: one UUID per action,
 * the same on each retry of it, so the command runs once (docs/messaging.md, "Idempotency-Key").
 */
export const idempotencyKeyHeaderSchema = z.object({ 'Idempotency-Key': z.uuid('Must be a UUID').optional() });
export type IdempotencyKeyHeader = z.infer<typeof idempotencyKeyHeaderSchema>;

/**
 * What a mail job carries that would let its reader act for the recipient (a sign-in link, a signed download link),
 * sealed for the notifier: a compact JWE (RFC 7516, five base64url parts) that only the notifier's key opens.
 */
export const sealedSchemaOf = (maxLength: number) =>
  textSchema()
    .max(maxLength)
    .regex(/^[\w-]+\.[\w-]*\.[\w-]+\.[\w-]+\.[\w-]+$/, 'must be a compact JWE');
export const sealedSchema = sealedSchemaOf(8192);

/** An HMAC-SHA256 the gateway signed for one service (a person's approval, an export's grant), base64url. */
export const signatureSchema = textSchema().regex(/^[\w-]{43}$/, 'Not a signature');

/** Epoch milliseconds, by the gateway's clock, when a person asked for what the gateway signs. */
export const approvedAtSchema = z.number().int().positive();

/**
 * The gateway's statement, carried in one e-mail's job, that a person it served asked for this e-mail to this address
 * (`libs/messaging/src/mail-approvals.ts`): the notifier sends such an e-mail only with it.
 */
export const mailApprovalSchema = z.object({ approvedAt: approvedAtSchema, signature: signatureSchema }).strict();
export type MailApproval = z.infer<typeof mailApprovalSchema>;

// PostgreSQL refuses year 0 and UTC offsets beyond ±15:59, which ISO 8601 allows: a 400 here, not a 500 there.
const isNotYearZero = (text: string) => !text.startsWith('0000');
const hasStorableOffset = (text: string) => !/[+-](1[6-9]|[2-9]\d)(:?\d{2})?$/.test(text);
// An offset can carry a time past a four-digit year in UTC (9999-12-31T23:00-05:00), which PostgreSQL stores but an
// answer's ISO text cannot say; such a time is refused on the way in rather than failing its answer.
const FIRST_INSTANT = Date.parse('0001-01-01T00:00:00Z');
const LAST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');
const isWithinFourDigitYears = (text: string) => {
  const instant = Date.parse(text);
  return instant >= FIRST_INSTANT && instant <= LAST_INSTANT;
};

/** A calendar date, YYYY-MM-DD. */
export const isoDateSchema = z.iso.date().refine(isNotYearZero, 'Invalid ISO date');

export const isoDateTimeSchema = z.iso
  .datetime({ offset: true })
  .refine((text) => isNotYearZero(text) && hasStorableOffset(text) && isWithinFourDigitYears(text), 'Invalid ISO datetime');

/** Keyset pagination: the cursor is opaque to clients (base64url of `created_at|id`). */
export const pageQuerySchema = z.object({
  cursor: textSchema().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export type PageQuery = z.infer<typeof pageQuerySchema>;

export const pageOf = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), nextCursor: z.string().nullable() });

/** `/health/live` and `/health/ready` when they answer 200. */
export const healthStatusSchema = z.object({ status: z.literal('ok') });
