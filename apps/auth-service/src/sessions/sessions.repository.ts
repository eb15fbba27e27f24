import type { DataSource } from 'typeorm';
import { expiredRowsSql } from '../expired-rows';
import { type UserRow, userColumns, waitForRoleChangeSql } from '../users/users.repository';
import { LIVE_ACCESS_WINDOW_SECONDS } from './session-revocations';

/**
 * How often one session (a family of refresh tokens) may be renewed. Every renewal leaves a row the family keeps
 * until it ends, for reuse detection; this bounds what one session can write. A page load renews once, a tab every
 * few minutes: a person does not come near it.
 */
export const SESSION_RENEWALS = { max: 60, windowSeconds: 600 };

/**
 * How long a spent refresh token still gets its successor again, as long as that successor has not been used: the
 * browser retries a refresh whose answer was lost (a replica gone after its commit, a reset connection, the page's
 * deadline) with the cookie it still holds. The page gives up on an answer only after its own deadline and then
 * retries a failed renewal every half minute, so the window spans that deadline and several retries through a short
 * outage. Past it, or once the successor was used, the token comes from someone else.
 */
export const REFRESH_REUSE_GRACE_SECONDS = 300;

// A refresh token that may still be spent, and whether its family is inside its renewal window (`seconds`: the
// parameter holding the window's length).
const liveTokenSql = 'used_at IS NULL AND revoked_at IS NULL AND expires_at > now()';
const windowOpenSql = (seconds: string) => `renewal_window_started_at > now() - make_interval(secs => ${seconds})`;
const withinBudgetSql = (seconds: string, max: string) => `(${windowOpenSql(seconds)} AND renewals_in_window >= ${max}) IS NOT TRUE`;
// The family's renewal window as the row renewing it carries it on: one more renewal, or a window that starts now.
const windowStartAfterRenewalSql = (seconds: string) => `CASE WHEN ${windowOpenSql(seconds)} THEN renewal_window_started_at ELSE now() END`;
const renewalsAfterRenewalSql = (seconds: string) => `CASE WHEN ${windowOpenSql(seconds)} THEN renewals_in_window + 1 ELSE 1 END`;
// The successor of a token spent within the grace window, selected by the successor's hash: the spent token's family
// holds it, and the spent token was not revoked since.
const successorInGraceSql = (presented: string, successor: string, graceSeconds: string) =>
  `token_hash = ${successor} AND family_id = (
     SELECT family_id FROM auth.refresh_tokens
     WHERE token_hash = ${presented} AND revoked_at IS NULL AND used_at > now() - make_interval(secs => ${graceSeconds}))`;

/** A renewal: the session renewed, or the seconds until its family may renew again. */
export type Rotation = { user: UserRow; familyId: string } | { retryAfterSeconds: number };

export class SessionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Spends a live refresh token and adds its successor to the same family, in one statement; the
   * successor expires when the spent one does, so a family ends when its sign-in's token would have, and carries the
   * family's renewal window on. Removes a few long-expired tokens on the way.
   * A token spent within the grace window whose successor (`next`, derived from it) is still live and unused gets that
   * successor again, counted as a renewal: the first answer was lost, and the holder is one browser retrying.
   * Returns the user and the family; how long to wait when the family has used up its renewals (nothing written); or
   * undefined when the token is unknown, revoked or expired, or spent and not repeatable.
   */
  async rotate(tokenHash: Buffer, next: { id: string; tokenHash: Buffer }): Promise<Rotation | undefined> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(waitForRoleChangeSql('SELECT user_id FROM auth.refresh_tokens WHERE token_hash = $1'), [tokenHash]);
      const renewed = async (sql: string, parameters: unknown[]): Promise<Rotation | undefined> => {
        const [row] = (await manager.query(sql, parameters)) as (UserRow & { family_id: string })[];
        if (!row) return undefined;
        const { family_id: familyId, ...user } = row;
        return { user, familyId };
      };
      // Waits for a rotation of the same token under way; once that commits, this finds the token spent.
      const rotated = await renewed(
        `WITH pruned AS (${expiredRowsSql('auth.refresh_tokens')}),
       spent AS (
         UPDATE auth.refresh_tokens SET used_at = now()
         WHERE token_hash = $1 AND ${liveTokenSql} AND ${withinBudgetSql('$4', '$5')}
         RETURNING family_id, user_id, expires_at,
           ${windowStartAfterRenewalSql('$4')} AS window_started_at, ${renewalsAfterRenewalSql('$4')} AS renewals
       ), fresh AS (
         INSERT INTO auth.refresh_tokens (id, family_id, user_id, token_hash, expires_at, renewal_window_started_at, renewals_in_window)
         SELECT $2::uuid, family_id, user_id, $3::bytea, expires_at, window_started_at, renewals FROM spent
         RETURNING family_id, user_id
       )
       SELECT ${userColumns}, fresh.family_id FROM auth.users JOIN fresh ON fresh.user_id = users.id`,
        [tokenHash, next.id, next.tokenHash, SESSION_RENEWALS.windowSeconds, SESSION_RENEWALS.max],
      );
      if (rotated) return rotated;
      // A statement of its own, which sees the successor a concurrent rotation committed. Updating the successor locks
      // it: repeats queue behind each other, and a rotation of the successor either commits first (then its spent
      // successor makes this a reuse) or waits until this one has answered.
      const repeated = await renewed(
        `WITH again AS (
         UPDATE auth.refresh_tokens
         SET renewal_window_started_at = ${windowStartAfterRenewalSql('$3')}, renewals_in_window = ${renewalsAfterRenewalSql('$3')}
         WHERE ${successorInGraceSql('$1', '$2', '$5')} AND ${liveTokenSql} AND ${withinBudgetSql('$3', '$4')}
         RETURNING family_id, user_id
       )
       SELECT ${userColumns}, again.family_id FROM auth.users JOIN again ON again.user_id = users.id`,
        [tokenHash, next.tokenHash, SESSION_RENEWALS.windowSeconds, SESSION_RENEWALS.max, REFRESH_REUSE_GRACE_SECONDS],
      );
      if (repeated) return repeated;
      const [exhausted] = (await manager.query(
        `SELECT ceil(extract(epoch FROM renewal_window_started_at + make_interval(secs => $3) - now()))::int AS retry_after_seconds
         FROM auth.refresh_tokens
         WHERE (token_hash = $1 OR ${successorInGraceSql('$1', '$2', '$5')}) AND ${liveTokenSql} AND ${windowOpenSql('$3')} AND renewals_in_window >= $4`,
        [tokenHash, next.tokenHash, SESSION_RENEWALS.windowSeconds, SESSION_RENEWALS.max, REFRESH_REUSE_GRACE_SECONDS],
      )) as { retry_after_seconds: number }[];
      return exhausted ? { retryAfterSeconds: Math.max(1, exhausted.retry_after_seconds) } : undefined;
    });
  }

  /**
   * Reuse detection: when the presented token was already spent, someone else holds a copy, so
   * every token of its family is revoked. Returns the family when that happened.
   */
  async revokeFamilyIfSpent(tokenHash: Buffer): Promise<string | undefined> {
    const family = await this.revokeFamilyOf('token_hash = $1 AND used_at IS NOT NULL', tokenHash);
    return family?.revoked ? family.familyId : undefined;
  }

  /** Sign-out: revokes the whole family of the presented token; returns it (undefined for an unknown token). */
  async revokeFamily(tokenHash: Buffer): Promise<string | undefined> {
    return (await this.revokeFamilyOf('token_hash = $1', tokenHash))?.familyId;
  }

  /**
   * Revokes every live token of the family of the token `presented` selects. The family's tokens are locked first,
   * which waits for a refresh rotating one of them at that moment; the revoke, a statement of its own, then sees the
   * successor that refresh added, which one statement begun before it committed would not.
   */
  private revokeFamilyOf(presented: string, tokenHash: Buffer): Promise<{ familyId: string; revoked: number } | undefined> {
    return this.dataSource.transaction(async (manager) => {
      const locked: { family_id: string }[] = await manager.query(
        `SELECT family_id FROM auth.refresh_tokens
         WHERE family_id = (SELECT family_id FROM auth.refresh_tokens WHERE ${presented})
         FOR UPDATE`,
        [tokenHash],
      );
      const familyId = locked[0]?.family_id;
      if (!familyId) return undefined;
      // An UPDATE answers [rows, count] through TypeORM.
      const [, revoked] = (await manager.query(`UPDATE auth.refresh_tokens SET revoked_at = now() WHERE family_id = $1 AND revoked_at IS NULL`, [
        familyId,
      ])) as [unknown[], number];
      return { familyId, revoked };
    });
  }

  /**
   * Sign-out everywhere: revokes every refresh token of the user, holding their row as a role change does, so a
   * sign-in under way waits and starts after it. `beforeCommit` gets the families whose access tokens may still live
   * and runs while the row is held. Answers how many sessions were live, or undefined for an unknown user.
   */
  async revokeEveryFamily(userId: string, beforeCommit: (liveFamilies: string[]) => Promise<void>): Promise<number | undefined> {
    return this.dataSource.transaction(async (manager) => {
      const users: unknown[] = await manager.query(`SELECT 1 FROM auth.users WHERE id = $1 FOR UPDATE`, [userId]);
      if (users.length === 0) return undefined;
      const [revoked] = (await manager.query(
        `WITH revoked AS (
           UPDATE auth.refresh_tokens SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL RETURNING family_id, created_at, expires_at
         )
         SELECT (SELECT count(DISTINCT family_id)::int FROM revoked WHERE expires_at > now()) AS sessions,
                ARRAY(SELECT DISTINCT family_id FROM revoked WHERE created_at > now() - make_interval(secs => $2)) AS live_families`,
        [userId, LIVE_ACCESS_WINDOW_SECONDS],
      )) as { sessions: number; live_families: string[] }[];
      await beforeCommit(revoked?.live_families ?? []);
      return revoked?.sessions ?? 0;
    });
  }
}
