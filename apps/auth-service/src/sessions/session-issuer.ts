import { createHmac, randomUUID } from 'node:crypto';
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
  private readonly successorKey: Buffer;

  constructor(
    secret: string,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.jwt = new JwtService({ secret, signOptions: { algorithm: 'HS256' } });
    // A key of its own, derived from the secret, so a successor never equals a MAC the secret makes for anything else.
    this.successorKey = createHmac('sha256', secret).update('spark refresh-token successor').digest();
  }

  /** A sign-in's refresh token: random. */
  newRefreshToken(): PendingRefreshToken {
    return this.pending(newOpaqueToken());
  }

  /**
   * The token that replaces `presented` when it is spent: derived from it with a server key, not drawn, so a refresh
   * repeated within the grace window (its first answer lost) is answered with the very successor the first one stored,
   * of which the database keeps only a hash. Nobody without the key can tell a successor from a random token.
   */
  successorOf(presented: string): PendingRefreshToken {
    return this.pending(createHmac('sha256', this.successorKey).update(presented).digest('base64url'));
  }

  private pending(token: string): PendingRefreshToken {
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
