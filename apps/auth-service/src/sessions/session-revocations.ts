import { ACCESS_TOKEN_TTL_SECONDS, revokedSessionKey, tokensVoidBeforeKey } from '@spark/contracts';
import type { Redis } from 'ioredis';

// As long as an access token issued just before the revocation can live, plus a minute for clocks
// that differ between the auth-service and the gateway.
const markerTtlSeconds = ACCESS_TOKEN_TTL_SECONDS + 60;

/**
 * Tells the gateway at once that access tokens no longer hold: refresh tokens are revoked in the
 * database, but an access token is checked without it, so the gateway reads these Redis markers
 * before every request that changes data.
 */
export class SessionRevocations {
  constructor(
    private readonly redis: Redis,
    private readonly busPrefix: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The access tokens of these sessions (refresh families) are void. */
  async sessionsEnded(sessionIds: readonly string[]): Promise<void> {
    if (sessionIds.length === 0) return;
    const batch = this.redis.multi();
    for (const id of sessionIds) batch.set(revokedSessionKey(this.busPrefix, id), '1', 'EX', markerTtlSeconds);
    await batch.exec();
  }

  /**
   * Every access token of the user issued until now is void. Tokens carry their issue time in whole
   * seconds, so the mark is the next second: a token of this very second is void too.
   */
  async userTokensVoid(userId: string): Promise<void> {
    const nextSecond = Math.floor(this.now().getTime() / 1000) + 1;
    await this.redis.set(tokensVoidBeforeKey(this.busPrefix, userId), String(nextSecond), 'EX', markerTtlSeconds);
  }
}
