import { createHash, createSecretKey, randomBytes } from 'node:crypto';
import { JwtService } from '@nestjs/jwt';
import { ACCESS_TOKEN_ISSUER, type AccessTokenClaims, accessTokenClaimsSchema, QUEUE_BOARD_PATH } from '@spark/contracts';
import { DomainError } from '@spark/errors';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { AuthenticatedUser } from '../auth/access-token.guard';
import type { SessionRevocationCheck } from '../auth/session-revocation-check';

/** Long enough for the browser to follow the address it was just given, too short to be worth stealing. */
export const QUEUE_BOARD_TICKET_TTL_SECONDS = 30;
/** The dashboard's cookie lives as long as an access token: an admin who keeps it open signs in again. */
const PASS_TTL_SECONDS = 15 * 60;
const PASS_AUDIENCE = 'spark-queue-board';
const PASS_COOKIE = 'spark_queue_board';
const passCookiePattern = new RegExp(`(?:^|;\\s*)${PASS_COOKIE}=([\\w-]+\\.[\\w-]+\\.[\\w-]+)(?:;|$)`);

const digest = (value: string) => createHash('sha256').update(value).digest('base64url');

/**
 * The queue dashboard's own sign-in: a full-page navigation carries no bearer token, so the SPA
 * trades its session for a single-use ticket (Redis, 30 s), and the gateway trades that ticket for
 * an httpOnly, SameSite=Strict cookie scoped to the dashboard's path, bound to the same session.
 * Every dashboard request then passes the same checks as an API call: signature,
 * expiry, the admin role, and the session's revocation markers.
 */
export class QueueBoardPasses {
  private readonly jwt: JwtService;
  private readonly cookieAttributes: string;

  constructor(
    private readonly redis: Redis,
    private readonly busPrefix: string,
    secret: string,
    publicUrl: string,
    private readonly revocations: SessionRevocationCheck,
  ) {
    this.jwt = new JwtService({ secret: createSecretKey(Buffer.from(secret)) });
    const secure = new URL(publicUrl).protocol === 'https:';
    this.cookieAttributes = `Path=${QUEUE_BOARD_PATH}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
  }

  /** A ticket for this admin's session; only its digest is stored, so Redis never holds a usable ticket. */
  async issueTicket(admin: AuthenticatedUser): Promise<{ ticket: string; expiresAt: Date }> {
    const ticket = randomBytes(32).toString('base64url');
    const claims = { sub: admin.id, email: admin.email, role: admin.role, sid: admin.sessionId };
    await this.redis.set(this.ticketKey(ticket), JSON.stringify(claims), 'EX', QUEUE_BOARD_TICKET_TTL_SECONDS);
    return { ticket, expiresAt: new Date(Date.now() + QUEUE_BOARD_TICKET_TTL_SECONDS * 1000) };
  }

  /** Uses the ticket up (GETDEL: a second use finds nothing) and sets the dashboard cookie; false when it is unknown or spent. */
  async redeem(ticket: string, reply: FastifyReply): Promise<boolean> {
    if (!/^[\w-]{43}$/.test(ticket)) return false;
    const stored = await this.redis.getdel(this.ticketKey(ticket));
    const claims = accessTokenClaimsSchema.omit({ iat: true }).safeParse(stored ? JSON.parse(stored) : undefined);
    if (!claims.success) return false;
    const pass = await this.jwt.signAsync(claims.data, {
      algorithm: 'HS256',
      issuer: ACCESS_TOKEN_ISSUER,
      audience: PASS_AUDIENCE,
      expiresIn: PASS_TTL_SECONDS,
    });
    void reply.header('set-cookie', `${PASS_COOKIE}=${pass}; Max-Age=${PASS_TTL_SECONDS}; ${this.cookieAttributes}`);
    return true;
  }

  /**
   * The admin a dashboard request comes from. UNAUTHENTICATED without a valid, current pass (a
   * signed-out session or a role change voids it at once), FORBIDDEN for any role but admin.
   */
  async admit(request: FastifyRequest): Promise<AccessTokenClaims> {
    const pass = passCookiePattern.exec(request.headers.cookie ?? '')?.[1];
    if (!pass) throw new DomainError('UNAUTHENTICATED', 'Sign in to continue.');
    const payload: unknown = await this.jwt
      .verifyAsync(pass, { algorithms: ['HS256'], issuer: ACCESS_TOKEN_ISSUER, audience: PASS_AUDIENCE })
      .catch(() => undefined);
    const claims = accessTokenClaimsSchema.safeParse(payload);
    if (!claims.success) throw new DomainError('UNAUTHENTICATED', 'Your session is invalid or has expired. Please sign in again.');
    await this.revocations.ensureCurrent(claims.data);
    if (claims.data.role !== 'admin') throw new DomainError('FORBIDDEN', 'Your role may not do this.');
    return claims.data;
  }

  private ticketKey(ticket: string): string {
    return `${this.busPrefix}:gateway:queue-board-ticket:${digest(ticket)}`;
  }
}
