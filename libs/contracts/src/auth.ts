import { z } from 'zod';
import { emailSchema, isoDateTimeSchema, pageOf, sealedSchema, signatureSchema, uuidSchema, textSchema } from './common';
import { greetingNameSchema } from './reminders';

export const userRoles = ['client', 'coach', 'admin'] as const;
export const userRoleSchema = z.enum(userRoles, { error: 'Role must be client, coach or admin' });
export type UserRole = z.infer<typeof userRoleSchema>;

/** Who the access JWT was issued by and for; the gateway refuses any other pair. */
export const ACCESS_TOKEN_ISSUER = 'spark-auth';
export const ACCESS_TOKEN_AUDIENCE = 'spark-api';
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
/** The httpOnly cookie that carries the rotating refresh token (on an https site with the `__Host-` prefix, see the gateway). */
export const REFRESH_COOKIE_NAME = 'spark_refresh';
export const REFRESH_COOKIE_PATH = '/api/auth';
/** A session family ends this long after its sign-in, however often its refresh token rotates. */
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;

/**
 * Wrong sign-in codes an address may collect across all its codes before code sign-in is paused
 * for it (whether or not it has an account), and for how long; a used sign-in link lifts the pause.
 */
export const CODE_GUESS_LIMIT = { failures: 10, hours: 24 } as const;

/**
 * Redis markers the auth-service writes and the gateway reads before every signed-in request
 * (both under BUS_PREFIX): an ended session (by its `sid`, the value says why), and a user whose
 * access tokens issued before a time are void (the value: Unix seconds, a space, and why). They live as long as an access token can.
 */
export const sessionEndReasons = ['signed-out', 'role-changed', 'token-reused', 'account-deleted', 'signed-out-everywhere'] as const;
export type SessionEndReason = (typeof sessionEndReasons)[number];
export const revokedSessionKey = (busPrefix: string, sessionId: string) => `${busPrefix}:auth:revoked-session:${sessionId}`;
export const tokensVoidBeforeKey = (busPrefix: string, userId: string) => `${busPrefix}:auth:tokens-void-before:${userId}`;
/**
 * Set by the auth-service only once Redis holds every live marker. Redis that restarted empty or was emptied lacks
 * it until the auth-service has written the markers back, and until then no signed-in request can be checked.
 */
export const revocationMarkersRetainedKey = (busPrefix: string) => `${busPrefix}:auth:revocation-markers-retained`;

/**
 * The claims of an access JWT that the gateway reads: sub = user id, sid = the session (refresh
 * family) it belongs to, iat = when it was issued (Unix seconds). A token signed before sessions
 * had ids carries no sid; it can still be voided by its user's marker.
 */
export const accessTokenClaimsSchema = z.object({
  sub: uuidSchema,
  email: z.string(),
  role: userRoleSchema,
  sid: uuidSchema.optional(),
  iat: z.number().int(),
});
export type AccessTokenClaims = z.infer<typeof accessTokenClaimsSchema>;

/** A relative SPA path the magic-link page continues to, e.g. `ditl-welcome` or `coach/leads`. */
const nextPathSchema = textSchema()
  .regex(/^[a-z0-9-]+(\/[a-z0-9-]+)*$/, 'Must be a relative path such as ditl-welcome')
  .max(100);

export const products = ['spark', 'coach'] as const;

/** Body of `POST /api/auth/magic-link` and the `auth.magic-link` request. */
export const magicLinkRequestSchema = z
  .object({
    email: emailSchema,
    product: z.enum(products).default('spark'),
    next: nextPathSchema.optional(),
  })
  .strict();
export type MagicLinkRequest = z.input<typeof magicLinkRequestSchema>;

/** The one answer every magic-link request gets, whether or not the e-mail has an account. */
export const magicLinkResponseSchema = z.object({
  message: z.string(),
});
export type MagicLinkResponse = z.infer<typeof magicLinkResponseSchema>;

export const redeemTokenSchema = z.object({ token: textSchema().min(20).max(200) }).strict();
export const redeemCodeSchema = z
  .object({
    email: emailSchema,
    code: textSchema()
      .trim()
      .regex(/^\d{6}$/, 'The code has 6 digits'),
  })
  .strict();
/** Body of `POST /api/auth/redeem`: the link's token, or the e-mail plus the 6-digit code. */
export const redeemRequestSchema = z.union([redeemTokenSchema, redeemCodeSchema]);
export type RedeemRequest = z.input<typeof redeemRequestSchema>;

/** Body of `POST /api/auth/link-info`: whose sign-in link this is, asked before the person spends it. */
export const linkInfoRequestSchema = redeemTokenSchema;
export type LinkInfoRequest = z.input<typeof linkInfoRequestSchema>;
export const linkInfoResponseSchema = z.object({ email: z.string() });
export type LinkInfo = z.infer<typeof linkInfoResponseSchema>;

export const userMetadataSchema = z.object({
  full_name: z.string().nullable(),
  role: userRoleSchema,
  onboarding_completed_at: isoDateTimeSchema.nullable(),
  transformation_goal: z.string().nullable(),
  assigned_coach_id: uuidSchema.nullable(),
});
export type UserMetadata = z.infer<typeof userMetadataSchema>;

export const authUserSchema = z.object({
  id: uuidSchema,
  email: z.string(),
  created_at: isoDateTimeSchema,
  user_metadata: userMetadataSchema,
});
export type AuthUser = z.infer<typeof authUserSchema>;

/** The session JSON the SPA holds in memory; the refresh token travels only in its cookie. */
export const sessionSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('bearer'),
  expires_in: z.number().int(),
  /** Unix seconds, as the access token's `exp`. */
  expires_at: z.number().int(),
  user: authUserSchema,
});
export type Session = z.infer<typeof sessionSchema>;

/** What the auth-service answers the gateway: the session plus the refresh token for the cookie. */
export const issuedSessionSchema = z.object({
  session: sessionSchema,
  refreshToken: z.string(),
});
export type IssuedSession = z.infer<typeof issuedSessionSchema>;

export const refreshRequestSchema = z.object({ refreshToken: textSchema().min(20).max(200) }).strict();
export const signOutResponseSchema = z.object({ signedOut: z.literal(true) });

/** `auth.sign-out-everywhere`: ends every session of the user, on every device; answers how many were live. */
export const signOutEverywhereRequestSchema = z.object({ userId: uuidSchema }).strict();
export const signOutEverywhereResponseSchema = z.object({ sessionsEnded: z.number().int().nonnegative() });

/** Body of `PATCH /api/auth/user`. Role and assigned coach are not the user's to change: 400. */
export const updateUserRequestSchema = z
  .object({
    full_name: textSchema().trim().min(1).max(200).nullable().optional(),
    onboarding_completed_at: isoDateTimeSchema.nullable().optional(),
    transformation_goal: textSchema().trim().max(2000).nullable().optional(),
  })
  .strict();
export type UpdateUserRequest = z.input<typeof updateUserRequestSchema>;

export const getUserRequestSchema = z.object({ userId: uuidSchema }).strict();
/**
 * `auth.client-recipient`, the notifier's: the address and first name of a client's account, to which the e-mails a
 * service addresses by itself (a spark reminder, a data export) may go.
 */
export const clientRecipientRequestSchema = z.object({ userId: uuidSchema }).strict();
export const clientRecipientSchema = z.object({ email: emailSchema, firstName: greetingNameSchema.nullable() });
export type ClientRecipient = z.infer<typeof clientRecipientSchema>;
export const updateUserBusRequestSchema = z.object({ userId: uuidSchema, changes: updateUserRequestSchema }).strict();

/** Query of `GET /api/auth/users` (coach/admin): newest first, keyset-paginated, `search` = start of the e-mail. */
export const listUsersRequestSchema = z
  .object({
    role: userRoleSchema.optional(),
    search: textSchema().trim().toLowerCase().max(200).optional(),
    cursor: textSchema().max(200).optional(),
    limit: z.coerce.number().int().min(1).max(100).default(50),
  })
  .strict();
export type ListUsersRequest = z.input<typeof listUsersRequestSchema>;
export const userPageSchema = pageOf(authUserSchema);
export type UserPage = z.infer<typeof userPageSchema>;

/** Body of `PATCH /api/admin/users/:userId/role`: an admin gives a user another role. */
export const setRoleBodySchema = z.object({ role: userRoleSchema }).strict();
export type SetRoleBody = z.input<typeof setRoleBodySchema>;
/** `auth.set-role`: the role change, with the admin who makes it. */
export const setRoleRequestSchema = z.object({ actorId: uuidSchema, userId: uuidSchema, role: userRoleSchema }).strict();

export const invitedRoleSchema = z.enum(['client', 'coach']);
export type InvitedRole = z.infer<typeof invitedRoleSchema>;
/** The account an approved lead becomes: a coach lead's a coach, any other a client. */
export const invitedRoleOf = (leadRole: string): InvitedRole => (leadRole === 'coach' ? 'coach' : 'client');

/**
 * A coach's or an admin's approval of one invitation, made by the gateway from their verified access token and the
 * address and role their dashboard showed them, and signed by it for the auth-service alone
 * (`libs/messaging/src/invite-approvals.ts`). The leads-service carries it from the click to the invitation; it cannot
 * make one up, so it cannot invite an address nobody approved.
 */
export const inviteApprovalSchema = z
  .object({
    actorId: uuidSchema,
    actorRole: z.enum(['coach', 'admin']),
    email: emailSchema,
    role: invitedRoleSchema,
    /** Epoch milliseconds, by the gateway's clock. */
    approvedAt: z.number().int().positive(),
    signature: signatureSchema,
  })
  .strict();
export type InviteApproval = z.infer<typeof inviteApprovalSchema>;

/** `auth.invite`: the leads-service creates the user of an approved lead and e-mails the link. */
export const inviteRequestSchema = z
  .object({
    email: emailSchema,
    role: invitedRoleSchema,
    fullName: textSchema().trim().min(1).max(200).optional(),
    next: z.literal('ditl-welcome').optional(),
    approval: inviteApprovalSchema,
    /**
     * Which invitation this is, named by the leads-service from its lead (docs/decisions.md, "An invitation is keyed
     * on its lead"): asked again for the same person under the same key, the auth-service answers the invitation it
     * made instead of e-mailing a new link. Without one, every invitation sends a fresh link, as a resend must.
     */
    invitationKey: textSchema().min(1).max(100).optional(),
  })
  .strict();
export type InviteRequest = z.input<typeof inviteRequestSchema>;

export const inviteResponseSchema = z.object({
  userId: uuidSchema,
  developmentMode: z.boolean(),
  /** Only with AUTH_DEVELOPMENT_MODE (never in production) and only for a client account, so a coach can copy it. */
  magicLink: z.url().optional(),
});
export type InviteResponse = z.infer<typeof inviteResponseSchema>;

/** The `magic-link` mail job: the link and the code of one sign-in, valid until `expiresAt`. */
export const magicLinkJobSchema = z.object({
  email: emailSchema,
  expiresAt: isoDateTimeSchema,
  purpose: z.enum(['sign-in', 'invite']),
  sealed: sealedSchema,
});
/** What the `magic-link` job seals: either signs its holder in. */
export const magicLinkSecretsSchema = z.object({
  link: z.url(),
  code: textSchema().regex(/^\d{6}$/),
});

/** The `code-sign-in-locked` mail job: code sign-in for the owner's address was just paused. */
export const codeSignInLockedJobSchema = z.object({
  email: emailSchema,
});
