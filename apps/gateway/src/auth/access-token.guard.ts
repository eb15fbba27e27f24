import { createSecretKey } from 'node:crypto';
import { type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { JwtService } from '@nestjs/jwt';
import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER, type AccessTokenClaims, accessTokenClaimsSchema, type UserRole } from '@spark/contracts';
import { DomainError } from '@spark/errors';
import type { FastifyRequest } from 'fastify';
import { IS_PUBLIC, REQUIRED_ROLES } from './auth.decorators';
import type { SessionRevocationCheck } from './session-revocation-check';

/** Who is calling, as the verified access token says. */
export interface AuthenticatedUser {
  id: string;
  email: string;
  role: UserRole;
  /** The session (refresh family) the token belongs to; absent on tokens from before sessions had ids. */
  sessionId?: string;
}

export type AuthenticatedRequest = FastifyRequest & { user: AuthenticatedUser };

const unauthenticated = (message: string) => new DomainError('UNAUTHENTICATED', message);
export const roleRefused = () => new DomainError('FORBIDDEN', 'Your role may not do this.');

/** Checks an access JWT (signature, expiry, issuer and audience) and reads its claims; no revocation, no role. */
class AccessTokenVerifier {
  private readonly jwt: JwtService;

  constructor(secret: string) {
    // A key object, not the string: jsonwebtoken first tries every string secret as a PEM public key and
    // catches the failure, which cost more than the HMAC itself on every request.
    this.jwt = new JwtService({ secret: createSecretKey(Buffer.from(secret)) });
  }

  async claimsOf(header: string | undefined): Promise<AccessTokenClaims> {
    const token = /^Bearer ([\w-]+\.[\w-]+\.[\w-]+)$/i.exec(header ?? '')?.[1];
    if (!token) throw unauthenticated('Sign in to continue.');
    const payload: unknown = await this.jwt
      .verifyAsync(token, { algorithms: ['HS256'], issuer: ACCESS_TOKEN_ISSUER, audience: ACCESS_TOKEN_AUDIENCE })
      .catch(() => undefined);
    const claims = accessTokenClaimsSchema.safeParse(payload);
    if (!claims.success) throw unauthenticated('Your session is invalid or has expired. Please sign in again.');
    return claims.data;
  }
}

/**
 * The gateway's one door: denies every route (401) unless it is @Public() or carries a valid
 * access JWT (signature, expiry, issuer and audience checked), refuses a signed-out or out-of-date
 * token on every request, reads included (401), and enforces @Roles() (403).
 */
export class AccessTokenGuard implements CanActivate {
  private readonly tokens: AccessTokenVerifier;

  constructor(
    secret: string,
    private readonly revocations: SessionRevocationCheck,
    private readonly reflector: Reflector = new Reflector(),
  ) {
    this.tokens = new AccessTokenVerifier(secret);
  }

  /**
   * Who calls, by a current access token (verified, neither signed out nor voided by a role change), noted on the
   * request for the handler and the audit trail.
   */
  async authenticate(request: FastifyRequest): Promise<AuthenticatedUser> {
    const claims = await this.tokens.claimsOf(request.headers.authorization);
    await this.revocations.ensureCurrent(claims);
    const user = { id: claims.sub, email: claims.email, role: claims.role, sessionId: claims.sid };
    (request as AuthenticatedRequest).user = user;
    return user;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean | undefined>(IS_PUBLIC, targets)) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    // A route that checks its caller before its body is read (applyJsonBodyLimits) has done this already.
    const user = (request as Partial<AuthenticatedRequest>).user ?? (await this.authenticate(request));
    const roles = this.reflector.getAllAndOverride<UserRole[] | undefined>(REQUIRED_ROLES, targets);
    if (roles && !roles.includes(user.role)) throw roleRefused();
    return true;
  }
}
