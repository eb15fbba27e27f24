import { REFRESH_COOKIE_NAME, REFRESH_COOKIE_PATH, REFRESH_TOKEN_TTL_SECONDS } from '@spark/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';

// A browser takes a `__Host-` cookie only from the host itself, over https, for the whole site: a neighbour under the
// same domain cannot plant one. Plain http (a developer's machine, the tests) cannot carry the prefix.
const HOST_ONLY_PREFIX = '__Host-';

/**
 * Sets, reads and clears the httpOnly refresh-token cookie. On an https site it is `__Host-spark_refresh` (Secure, the
 * whole site): another subdomain can set a `spark_refresh` cookie for the domain, which would otherwise sign a visitor
 * into the planter's account. On plain http it is `spark_refresh`, scoped to the auth routes.
 * One cookie of a known alphabet needs no parser; @fastify/cookie 11.1 loads `cookie` with a dynamic ESM import that
 * the jest runtime cannot execute.
 */
export class RefreshCookie {
  private readonly name: string;
  private readonly attributes: string;
  private readonly valuePattern: RegExp;
  private readonly namePattern: RegExp;

  constructor(publicUrl: string) {
    const secure = new URL(publicUrl).protocol === 'https:';
    this.name = secure ? `${HOST_ONLY_PREFIX}${REFRESH_COOKIE_NAME}` : REFRESH_COOKIE_NAME;
    this.attributes = secure ? 'Path=/; HttpOnly; SameSite=Lax; Secure' : `Path=${REFRESH_COOKIE_PATH}; HttpOnly; SameSite=Lax`;
    // Refresh tokens are base64url, so the value never needs quoting or escaping.
    this.valuePattern = new RegExp(`(?:^|;\\s*)${this.name}=([\\w-]{20,200})(?:;|$)`);
    this.namePattern = new RegExp(`(?:^|;\\s*)${this.name}=`);
  }

  /** The refresh token; undefined when the cookie is missing or malformed. */
  read(request: FastifyRequest): string | undefined {
    return this.valuePattern.exec(request.headers.cookie ?? '')?.[1];
  }

  /** Whether the request carries the cookie at all, well-formed or not. */
  isSent(request: FastifyRequest): boolean {
    return this.namePattern.test(request.headers.cookie ?? '');
  }

  set(reply: FastifyReply, refreshToken: string): void {
    void reply.header('set-cookie', `${this.name}=${refreshToken}; Max-Age=${REFRESH_TOKEN_TTL_SECONDS}; ${this.attributes}`);
  }

  clear(reply: FastifyReply): void {
    void reply.header('set-cookie', `${this.name}=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; ${this.attributes}`);
  }
}
