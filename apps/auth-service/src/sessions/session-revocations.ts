import { ACCESS_TOKEN_TTL_SECONDS, revokedSessionKey, type SessionEndReason, tokensVoidBeforeKey } from '@spark/contracts';
import type { ChainableCommander, Redis } from 'ioredis';

// As long as an access token issued just before the revocation can live, plus a minute for clocks
// that differ between the auth-service and the gateway.
const markerTtlSeconds = ACCESS_TOKEN_TTL_SECONDS + 60;

/** Refresh families whose newest tokens are this recent may still have live access tokens. */
export const LIVE_ACCESS_WINDOW_SECONDS = markerTtlSeconds;

/**
 * Tells the gateway at once that access tokens no longer hold: refresh tokens are revoked in the
 * database, but an access token is checked without it, so the gateway reads these Redis markers
 * before every signed-in request.
 */
export class SessionRevocations {
  constructor(
    private readonly redis: Redis,
    private readonly busPrefix: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The access tokens of these sessions (refresh families) are void, for `reason`. */
  async sessionsEnded(sessionIds: readonly string[], reason: SessionEndReason): Promise<void> {
    if (sessionIds.length === 0) return;
    await this.markSessions(this.redis.multi(), sessionIds, reason).exec();
  }

  /**
   * After a role change: the user's recent sessions are ended, and so is every access token of the
   * user from an earlier second (also one without a session id). Tokens carry their issue time in
   * whole seconds; those of this very second belong to the sessions just ended, so a sign-in right
   * after the change is not refused.
   */
  async roleChanged(userId: string, sessionIds: readonly string[]): Promise<void> {
    await this.endEverySession(userId, sessionIds, 'role-changed');
  }

  /** After an account deletion: as after a role change, every access token of the user stops holding. */
  async accountDeleted(userId: string, sessionIds: readonly string[]): Promise<void> {
    await this.endEverySession(userId, sessionIds, 'account-deleted');
  }

  private async endEverySession(userId: string, sessionIds: readonly string[], reason: SessionEndReason): Promise<void> {
    const thisSecond = Math.floor(this.now().getTime() / 1000);
    const batch = this.redis.multi().set(tokensVoidBeforeKey(this.busPrefix, userId), `${thisSecond} ${reason}`, 'EX', markerTtlSeconds);
    await this.markSessions(batch, sessionIds, reason).exec();
  }

  private markSessions(batch: ChainableCommander, sessionIds: readonly string[], reason: SessionEndReason): ChainableCommander {
    for (const id of sessionIds) batch.set(revokedSessionKey(this.busPrefix, id), reason, 'EX', markerTtlSeconds);
    return batch;
  }
}
