import { REFRESH_COOKIE_NAME, REFRESH_COOKIE_PATH, REFRESH_TOKEN_TTL_SECONDS } from '@spark/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';

// Refresh tokens are base64url, so the value never needs quoting or escaping.
const cookiePattern = new RegExp(`(?:^|;\\s*)${REFRESH_COOKIE_NAME}=([\\w-]{20,200})(?:;|$)`);
const cookieNamePattern = new RegExp(`(?:^|;\\s*)${REFRESH_COOKIE_NAME}=`);

/**
 * Sets, reads and clears the httpOnly refresh-token cookie (Secure whenever the site is https).
 * One cookie of a known alphabet needs no parser; @fastify/cookie 11.1 loads `cookie` with a
 * dynamic ESM import that the jest runtime cannot execute.
 */
export class RefreshCookie {
  private readonly attributes: string;

  constructor(publicUrl: string) {
    const secure = new URL(publicUrl).protocol === 'https:';
    this.attributes = `Path=${REFRESH_COOKIE_PATH}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
  }

  /** The refresh token; undefined when the cookie is missing or malformed. */
  read(request: FastifyRequest): string | undefined {
    return cookiePattern.exec(request.headers.cookie ?? '')?.[1];
  }

  /** Whether the request carries the cookie at all, well-formed or not. */
  isSent(request: FastifyRequest): boolean {
    return cookieNamePattern.test(request.headers.cookie ?? '');
  }

  set(reply: FastifyReply, refreshToken: string): void {
    void reply.header('set-cookie', `${REFRESH_COOKIE_NAME}=${refreshToken}; Max-Age=${REFRESH_TOKEN_TTL_SECONDS}; ${this.attributes}`);
  }

  clear(reply: FastifyReply): void {
    void reply.header('set-cookie', `${REFRESH_COOKIE_NAME}=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; ${this.attributes}`);
  }
}
