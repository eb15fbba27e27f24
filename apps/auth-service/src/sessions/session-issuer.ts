import { randomUUID } from 'node:crypto';
import { JwtService } from '@nestjs/jwt';
import {
  ACCESS_TOKEN_AUDIENCE,
  ACCESS_TOKEN_ISSUER,
  ACCESS_TOKEN_TTL_SECONDS,
  type AccessTokenClaims,
  type IssuedSession,
  REFRESH_TOKEN_TTL_SECONDS,
} from '@spark/contracts';
import { hashToken, newOpaqueToken } from '../sign-in/secrets';
import type { UserRow } from '../users/users.repository';
import { toAuthUser } from '../users/users.service';

/** A refresh token before it is stored: the secret for the cookie and what the database keeps. */
export interface PendingRefreshToken {
  token: string;
  id: string;
  tokenHash: Buffer;
  expiresAt: Date;
}

/** Signs access JWTs and mints refresh tokens; pure apart from the clock and randomness. */
export class SessionIssuer {
  private readonly jwt: JwtService;

  constructor(
    secret: string,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.jwt = new JwtService({ secret, signOptions: { algorithm: 'HS256' } });
  }

  newRefreshToken(): PendingRefreshToken {
    const token = newOpaqueToken();
    return {
      token,
      id: randomUUID(),
      tokenHash: hashToken(token),
      expiresAt: new Date(this.now().getTime() + REFRESH_TOKEN_TTL_SECONDS * 1000),
    };
  }

  /** The session JSON for `user`, with the refresh token that was stored for it in family `sessionId`. */
  session(user: UserRow, refresh: PendingRefreshToken, sessionId: string): IssuedSession {
    const issuedAt = Math.floor(this.now().getTime() / 1000);
    const claims: AccessTokenClaims = { sub: user.id, email: user.email, role: user.role, sid: sessionId, iat: issuedAt };
    const accessToken = this.jwt.sign(claims, {
      expiresIn: ACCESS_TOKEN_TTL_SECONDS,
      issuer: ACCESS_TOKEN_ISSUER,
      audience: ACCESS_TOKEN_AUDIENCE,
    });
    return {
      session: {
        access_token: accessToken,
        token_type: 'bearer',
        expires_in: ACCESS_TOKEN_TTL_SECONDS,
        expires_at: issuedAt + ACCESS_TOKEN_TTL_SECONDS,
        user: toAuthUser(user),
      },
      refreshToken: refresh.token,
    };
  }
}
