import { createHash, createHmac, randomBytes, randomInt } from 'node:crypto';

/** 32 random bytes, base64url: the secret of a magic link or a refresh token. */
export const newOpaqueToken = () => randomBytes(32).toString('base64url');

/** Tokens are stored only as their SHA-256: a leaked table signs nobody in. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest();

export const newSignInCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

/**
 * A 6-digit code has only a million values, so a plain hash would fall to a table; it is keyed
 * with the server secret (not in the database) and bound to the e-mail.
 */
export const hashSignInCode = (pepper: string, email: string, code: string) => createHmac('sha256', pepper).update(`${email}\n${code}`).digest();

/**
 * The link the e-mail carries. The token travels in the fragment, which browsers send to no server
 * and put in no Referer, so it stays out of request logs and proxies; the page reads it and spends
 * it only when the person confirms.
 */
export function magicLinkUrl(publicUrl: string, token: string, next: string | undefined, approved: boolean): string {
  const url = new URL('/magic-link-auth', publicUrl);
  if (next) url.searchParams.set('next', next);
  if (approved) url.searchParams.set('approved', 'true');
  url.hash = new URLSearchParams({ token }).toString();
  return url.toString();
}
