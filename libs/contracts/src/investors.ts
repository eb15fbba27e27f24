import { z } from 'zod';
import {
  approvedAtSchema,
  emailSchema,
  isoDateTimeSchema,
  mailApprovalSchema,
  pageOf,
  pageQuerySchema,
  sealedSchemaOf,
  signatureSchema,
  uuidSchema,
  textSchema,
} from './common';

/** Spec section 9: the four commitment levels in dollars, each linking to its payment page. */
export const commitmentLevels = [
  { amount: 100, name: 'Pivot' },
  { amount: 250, name: 'Alignment' },
  { amount: 500, name: 'Evolution' },
  { amount: 1000, name: 'Transformation' },
] as const;

/** How long a deck download link works (docs/product.md §9). */
export const DECK_DOWNLOAD_TTL_SECONDS = 3600;

/** `SPARK-` and five groups of four Crockford base32 characters: 100 random bits, not guessable. */
export const accessCodeSchema = textSchema()
  .trim()
  .toUpperCase()
  .regex(/^SPARK(-[0-9A-HJKMNP-TV-Z]{4}){5}$/, 'Invalid access code. Please check your code and try again.');

/** Where a stored campaign's text had an access code (`redactAccessCodes`). */
const ACCESS_CODE_PLACEHOLDER = '[access code]';
const ACCESS_CODES_IN_TEXT = /SPARK(-[0-9A-Z]{4}){5}/gi;
/**
 * The text with every access code in it replaced by a placeholder: what a campaign's record keeps (with its e-mail, a
 * code opens the deck, and codes are otherwise stored only as hashes). Only the e-mail, sealed, carries the code.
 */
export const redactAccessCodes = (text: string): string => text.replace(ACCESS_CODES_IN_TEXT, ACCESS_CODE_PLACEHOLDER);

/** How long an access code opens the deck after it was generated or reissued. */
export const ACCESS_CODE_TTL_DAYS = 30;

/**
 * An investor as the Investors tab lists them. The access code itself is never here: it is stored
 * only as a hash, so the tab shows it once, in the answer that generated it, and then its state.
 */
export const investorSchema = z.object({
  id: uuidSchema,
  email: z.string(),
  interest: z.string().nullable(),
  createdAt: isoDateTimeSchema,
  lastEmailSentAt: isoDateTimeSchema.nullable(),
  codeIssuedAt: isoDateTimeSchema.nullable(),
  codeExpiresAt: isoDateTimeSchema.nullable(),
  /** Downloads with the code in force. */
  accessCount: z.number().int(),
  accessedAt: isoDateTimeSchema.nullable(),
});
export type Investor = z.infer<typeof investorSchema>;

export const investorPageSchema = pageOf(investorSchema).extend({ total: z.number().int() });
export type InvestorPage = z.infer<typeof investorPageSchema>;
export const listInvestorsRequestSchema = pageQuerySchema;

/** The public deck request and early-access forms, and the admin's Add Investor modal. */
export const registerInvestorRequestSchema = z.object({ email: emailSchema, interest: textSchema().trim().max(500).nullish() }).strict();
export type RegisterInvestorRequest = z.input<typeof registerInvestorRequestSchema>;
/** `created` is false when the e-mail was already known: the public forms ignore the duplicate. */
export const registerInvestorResponseSchema = z.object({ investor: investorSchema, created: z.boolean() });

/** `investor.generate-access-code` (409 when the investor has a code: reissue it) and `investor.reissue-access-code`. */
export const generateAccessCodeRequestSchema = z.object({ investorId: uuidSchema }).strict();
/** The only answer that carries the code in clear. */
export const generateAccessCodeResponseSchema = z.object({ investorId: uuidSchema, accessCode: z.string(), expiresAt: isoDateTimeSchema });
export type GenerateAccessCodeResponse = z.infer<typeof generateAccessCodeResponseSchema>;

/** Body of `POST /api/investors/deck-download` (`download-investor-deck`). */
export const deckDownloadRequestSchema = z.object({ email: emailSchema, accessCode: accessCodeSchema }).strict();
export type DeckDownloadRequest = z.input<typeof deckDownloadRequestSchema>;
export const redeemAccessCodeResponseSchema = z.object({ investorId: uuidSchema, accessCount: z.number().int() });
export const deckDownloadResponseSchema = z.object({ downloadUrl: z.url(), expiresAt: isoDateTimeSchema });
export type DeckDownloadResponse = z.infer<typeof deckDownloadResponseSchema>;

/**
 * Body of `POST /api/investors/emails` (`send-investor-email`). The composer picks the campaign's id, so sending it
 * again (a retry after an error whose campaign did go) is the same campaign, not a second one.
 */
export const sendInvestorEmailRequestSchema = z
  .object({
    campaignId: uuidSchema.optional(),
    emails: z.array(emailSchema).min(1, 'Choose at least one investor').max(1000),
    subject: textSchema().trim().min(1, 'Subject required').max(200),
    body: textSchema().trim().min(1, 'Message required').max(20_000),
  })
  .strict();
export type SendInvestorEmailRequest = z.input<typeof sendInvestorEmailRequestSchema>;

/**
 * `investor.send-email`: the admin's campaign with the gateway's approval of its text for each recipient, which the
 * notifier checks before it sends anything (`libs/messaging/src/campaign-approvals.ts`), keyed by address.
 */
export const sendInvestorEmailCommandSchema = sendInvestorEmailRequestSchema
  .extend({ approval: z.object({ approvedAt: approvedAtSchema, signatures: z.record(emailSchema, signatureSchema) }).strict() })
  .strict();
export type SendInvestorEmailCommand = z.input<typeof sendInvestorEmailCommandSchema>;

/** A campaign's per-recipient outcome so far; `pending` reaches 0 once every delivery finished. */
export const investorCampaignSchema = z.object({
  id: uuidSchema,
  total: z.number().int(),
  sent: z.number().int(),
  failed: z.number().int(),
  pending: z.number().int(),
  failedEmails: z.array(z.string()),
});
export type InvestorCampaign = z.infer<typeof investorCampaignSchema>;
export const getCampaignRequestSchema = z.object({ campaignId: uuidSchema });

/** What /donate needs besides the forms: the payment page of each commitment level. */
export const donatePageSchema = z.object({
  commitmentLevels: z.array(z.object({ amount: z.number().int(), name: z.string(), paymentUrl: z.url() })),
  hasDeckPreview: z.boolean(),
});
export type DonatePage = z.infer<typeof donatePageSchema>;

/**
 * One e-mail of a campaign: the job id is the delivery id, so a retry or a re-add sends nothing twice. Its text is
 * sealed for the notifier (`investorEmailSecretsSchema`): the admin's "Send Code" puts an access code in it.
 */
export const investorEmailJobSchema = z.object({
  deliveryId: uuidSchema,
  campaignId: uuidSchema,
  email: emailSchema,
  /** The recipient's approval (`sendInvestorEmailCommandSchema`) of the sealed text. */
  approval: mailApprovalSchema,
  // A body of 20,000 characters, each up to 6 bytes JSON-escaped, a third more in base64url.
  sealed: sealedSchemaOf(200_000),
});
/** What the `investor-email` job seals: the campaign's text, which may hold the recipient's access code. */
export const investorEmailSecretsSchema = z.object({
  subject: textSchema().min(1),
  body: textSchema().min(1),
});

/** The public investor forms answer the same whether or not the address was known. */
export const investorFormReceivedSchema = z.object({ received: z.literal(true) });
/** `PUT /api/investors/deck/:file`: which deck file was replaced. */
export const deckUploadedSchema = z.object({ uploaded: z.enum(['full', 'preview']) });
