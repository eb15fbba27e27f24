import type { DataSource } from 'typeorm';
import { type UserRow, userColumns } from '../users/users.repository';

export class SessionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Spends a live refresh token and adds its successor to the same family, in one statement;
   * returns the user, or undefined when the token is unknown, spent, revoked or expired.
   */
  async rotate(tokenHash: Buffer, next: { id: string; tokenHash: Buffer; expiresAt: Date }): Promise<UserRow | undefined> {
    const rows: UserRow[] = await this.dataSource.query(
      `WITH spent AS (
         UPDATE auth.refresh_tokens SET used_at = now()
         WHERE token_hash = $1 AND used_at IS NULL AND revoked_at IS NULL AND expires_at > now()
         RETURNING family_id, user_id
       ), fresh AS (
         INSERT INTO auth.refresh_tokens (id, family_id, user_id, token_hash, expires_at)
         SELECT $2::uuid, family_id, user_id, $3::bytea, $4::timestamptz FROM spent
         RETURNING user_id
       )
       SELECT ${userColumns} FROM auth.users WHERE id = (SELECT user_id FROM fresh)`,
      [tokenHash, next.id, next.tokenHash, next.expiresAt],
    );
    return rows[0];
  }

  /**
   * Reuse detection: when the presented token was already spent, someone else holds a copy, so
   * every token of its family is revoked. Returns whether that happened.
   */
  async revokeFamilyIfSpent(tokenHash: Buffer): Promise<boolean> {
    const rows: [unknown[], number] = await this.dataSource.query(
      `UPDATE auth.refresh_tokens SET revoked_at = now()
       WHERE family_id = (SELECT family_id FROM auth.refresh_tokens WHERE token_hash = $1 AND used_at IS NOT NULL)
         AND revoked_at IS NULL
       RETURNING 1`,
      [tokenHash],
    );
    return rows[1] > 0;
  }

  /** Sign-out: revokes the whole family of the presented token (a no-op for an unknown one). */
  async revokeFamily(tokenHash: Buffer): Promise<void> {
    await this.dataSource.query(
      `UPDATE auth.refresh_tokens SET revoked_at = now()
       WHERE family_id = (SELECT family_id FROM auth.refresh_tokens WHERE token_hash = $1) AND revoked_at IS NULL`,
      [tokenHash],
    );
  }
}
