import { type AccessTokenClaims, revocationMarkersRetainedKey, revokedSessionKey, type SessionEndReason, tokensVoidBeforeKey } from '@spark/contracts';
import { DomainError } from '@spark/errors';
import type { Redis } from 'ioredis';
import { redisUnavailable, serviceUnavailable } from '../http/redis-unavailable';

const endedSession: Record<SessionEndReason, string> = {
  'signed-out': 'You signed out of this session. Please sign in again.',
  'role-changed': 'Your role changed. Please sign in again.',
  'token-reused': 'This session was ended because its refresh token was used twice. Please sign in again.',
  'account-deleted': 'This account was deleted.',
  'signed-out-everywhere': 'You signed out on every device. Please sign in again.',
};

/**
 * Reads the auth-service's revocation markers for an access token, in one Redis round trip: its
 * session was signed out, or its user's tokens issued before a time (a role change) are void. Read with them, the
 * key the auth-service sets once Redis holds every marker: without it Redis lost its data and a missing marker
 * proves nothing, so the request is refused as if Redis were down until the markers are back.
 */
export class SessionRevocationCheck {
  constructor(
    private readonly redis: Redis,
    private readonly busPrefix: string,
  ) {}

  /**
   * Throws UNAUTHENTICATED when the token no longer holds; SERVICE_UNAVAILABLE when Redis does not answer or has lost
   * the markers.
   */
  async ensureCurrent(claims: Pick<AccessTokenClaims, 'sub' | 'sid' | 'iat'>): Promise<void> {
    const keys = [
      revocationMarkersRetainedKey(this.busPrefix),
      tokensVoidBeforeKey(this.busPrefix, claims.sub),
      ...(claims.sid ? [revokedSessionKey(this.busPrefix, claims.sid)] : []),
    ];
    // Unknown is refused: without the markers a signed-out token could read or change data.
    const [retained, voidBefore, sessionRevoked] = await this.redis.mget(...keys).catch(redisUnavailable);
    if (!retained) throw serviceUnavailable();
    if (sessionRevoked) throw new DomainError('UNAUTHENTICATED', endedSession[sessionRevoked as SessionEndReason] ?? endedSession['signed-out']);
    if (!voidBefore) return;
    // "<unix seconds> <reason>"; a marker written before reasons were added holds only the seconds (a role change).
    const [since, reason = 'role-changed'] = voidBefore.split(' ');
    if (claims.iat < Number(since)) throw new DomainError('UNAUTHENTICATED', endedSession[reason as SessionEndReason] ?? endedSession['role-changed']);
  }
}
