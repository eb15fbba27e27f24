import type { AuthUser, LinkInfo, LinkInfoRequest, MagicLinkRequest, MagicLinkResponse, RedeemRequest, Session, UpdateUserRequest } from '@spark/contracts';
import { apiRequest } from '../../../api/client';
import { acrossTabs } from '../../session/across-tabs';

// Session calls ride on the httpOnly refresh cookie; a bearer token would add nothing.
const cookieOnly = { authenticate: false } as const;

export const sendMagicLink = (request: MagicLinkRequest) => apiRequest<MagicLinkResponse>('POST', '/auth/magic-link', request, cookieOnly);

/** Whose a sign-in link is; spends nothing. */
export const fetchLinkOwner = (request: LinkInfoRequest) => apiRequest<LinkInfo>('POST', '/auth/link-info', request, cookieOnly);

/** Sets the new session's cookie, not while another tab renews on the cookie it replaces (waiting a few seconds at most). */
export const redeemSignIn = (request: RedeemRequest) =>
  acrossTabs(() => apiRequest<Session>('POST', '/auth/redeem', request, cookieOnly), { waitAtMostMs: 5_000 });

/**
 * A fresh session on the refresh cookie; null when the browser holds none. The session store tells a spent cookie
 * (4xx) from "unreachable" (0, 429, 5xx) by status alone.
 */
export const refreshSession = () => apiRequest<Session | null>('POST', '/auth/refresh', undefined, { ...cookieOnly, readErrorBody: false });

export const endServerSession = () => apiRequest<void>('POST', '/auth/sign-out', undefined, cookieOnly);

/** Ends every session of the signed-in person, on every device; the access token says whose. */
export const endEverySession = () => apiRequest<void>('POST', '/auth/sign-out-everywhere');

export const updateCurrentUser = (changes: UpdateUserRequest) => apiRequest<AuthUser>('PATCH', '/auth/user', changes);
