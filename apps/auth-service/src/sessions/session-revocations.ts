import { ACCESS_TOKEN_TTL_SECONDS, revocationMarkersRetainedKey, revokedSessionKey, type SessionEndReason, tokensVoidBeforeKey } from '@spark/contracts';
import type { Logger } from '@spark/logging';
import type { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';

// As long as an access token issued just before the revocation can live, plus a minute for clocks
// that differ between the auth-service and the gateway.
const markerTtlSeconds = ACCESS_TOKEN_TTL_SECONDS + 60;

/** Refresh families whose newest tokens are this recent may still have live access tokens. */
export const LIVE_ACCESS_WINDOW_SECONDS = markerTtlSeconds;

interface Marker {
  key: string;
  value: string;
}

/**
 * Tells the gateway at once that access tokens no longer hold: refresh tokens are revoked in the
 * database, but an access token is checked without it, so the gateway reads these Redis markers
 * before every signed-in request.
 *
 * Redis may restart empty or be emptied, and a token ended just before would then hold again until it expired. So
 * each marker is copied to PostgreSQL first (`auth.revocation_markers`, for as long as it lives in Redis), and
 * `watchForLoss` writes the live ones back once the key that is only ever set after they were
 * (`revocationMarkersRetainedKey`) is gone. The gateway refuses signed-in requests while that key is missing.
 */
export class SessionRevocations {
  constructor(
    private readonly redis: Redis,
    private readonly busPrefix: string,
    private readonly dataSource: Pick<DataSource, 'query'>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The access tokens of these sessions (refresh families) are void, for `reason`. */
  async sessionsEnded(sessionIds: readonly string[], reason: SessionEndReason): Promise<void> {
    await this.write(this.sessionMarkers(sessionIds, reason));
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

  /** The person signed out on every device: as after a role change, every access token of theirs stops holding. */
  async signedOutEverywhere(userId: string, sessionIds: readonly string[]): Promise<void> {
    await this.endEverySession(userId, sessionIds, 'signed-out-everywhere');
  }

  /** After an account deletion: as after a role change, every access token of the user stops holding. */
  async accountDeleted(userId: string, sessionIds: readonly string[]): Promise<void> {
    await this.endEverySession(userId, sessionIds, 'account-deleted');
  }

  /**
   * Checks at once, then every `intervalMs`, whether Redis lost its data and, if so, writes the markers back: within
   * that time of a restart or a flush, as the outbox relay finds lost jobs. A check still running is not started
   * again. `checked` settles once the first check has (a Redis that does not answer is logged and checked again).
   */
  watchForLoss(intervalMs: number, logger: Logger): { checked: Promise<void>; stop(): void } {
    let running: Promise<void> | undefined;
    const check = () =>
      (running ??= this.restoreIfLost()
        .then(
          (restored) => void (restored && logger.warn({ restored }, 'Redis lost its data; revocation markers written back')),
          (error: unknown) => logger.warn({ err: error }, 'could not check Redis for lost revocation markers; trying again'),
        )
        .finally(() => (running = undefined)));
    const checked = check();
    const timer = setInterval(() => void check(), intervalMs);
    timer.unref();
    return { checked, stop: () => clearInterval(timer) };
  }

  /** How many markers were written back, or undefined when Redis still holds what it was given. */
  private async restoreIfLost(): Promise<number | undefined> {
    if ((await this.redis.exists(revocationMarkersRetainedKey(this.busPrefix))) === 1) return undefined;
    const restored = await this.restore();
    // Only after the markers: a check that fails halfway leaves the key unset, and the next one writes them again.
    await this.redis.set(revocationMarkersRetainedKey(this.busPrefix), new Date().toISOString());
    return restored;
  }

  /**
   * Writes back the markers still alive by the copy, with the time they have left. A marker Redis already holds was
   * written since, and is kept (`NX`).
   */
  private async restore(): Promise<number> {
    const live = (await this.dataSource.query(
      `SELECT key, value, ceil(extract(epoch FROM expires_at - now()) * 1000)::bigint AS ttl_ms FROM auth.revocation_markers WHERE expires_at > now()`,
    )) as (Marker & { ttl_ms: string })[];
    if (live.length === 0) return 0;
    const batch = this.redis.multi();
    for (const { key, value, ttl_ms } of live) batch.set(key, value, 'PX', Number(ttl_ms), 'NX');
    await batch.exec();
    return live.length;
  }

  private async endEverySession(userId: string, sessionIds: readonly string[], reason: SessionEndReason): Promise<void> {
    const thisSecond = Math.floor(this.now().getTime() / 1000);
    await this.write([{ key: tokensVoidBeforeKey(this.busPrefix, userId), value: `${thisSecond} ${reason}` }, ...this.sessionMarkers(sessionIds, reason)]);
  }

  private sessionMarkers(sessionIds: readonly string[], reason: SessionEndReason): Marker[] {
    return sessionIds.map((id) => ({ key: revokedSessionKey(this.busPrefix, id), value: reason }));
  }

  /** The copy first, and the copy's expired markers pruned in the same statement; then Redis. */
  private async write(markers: Marker[]): Promise<void> {
    if (markers.length === 0) return;
    await this.dataSource.query(
      `WITH expired AS (DELETE FROM auth.revocation_markers WHERE expires_at <= now() AND key <> ALL ($1::text[]))
       INSERT INTO auth.revocation_markers (key, value, expires_at)
       SELECT key, value, now() + make_interval(secs => $3) FROM unnest($1::text[], $2::text[]) AS marker (key, value)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at`,
      [markers.map(({ key }) => key), markers.map(({ value }) => value), markerTtlSeconds],
    );
    const batch = this.redis.multi();
    for (const { key, value } of markers) batch.set(key, value, 'EX', markerTtlSeconds);
    await batch.exec();
  }
}
