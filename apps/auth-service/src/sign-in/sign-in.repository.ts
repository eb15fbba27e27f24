import type { UserRole } from '@spark/contracts';
import { type JobRequest, outboxInsertSql, outboxRows } from '@spark/jobs';
import type { DataSource } from 'typeorm';
import { type UserRow, userColumns } from '../users/users.repository';

export interface NewMagicLink {
  id: string;
  email: string;
  tokenHash: Buffer;
  codeHash: Buffer;
  expiresAt: Date;
}

/** The refresh token that starts a new session family when a link or code is redeemed. */
export interface NewRefreshToken {
  id: string;
  familyId: string;
  tokenHash: Buffer;
  expiresAt: Date;
}

export type CodeAttempt =
  | { outcome: 'no-open-code' }
  | { outcome: 'wrong-code'; attemptsLeft: number }
  | { outcome: 'signed-in'; user: UserRow };

export const MAX_CODE_ATTEMPTS = 5;

/**
 * Issues the link of the user the `target` CTE yields (one `id` column, or no row), voids the
 * e-mail's older open links and writes the e-mail job, all in one statement.
 */
const issueSql = (target: string, firstParam: number) => `
  WITH target AS (${target}),
  voided AS (
    UPDATE auth.magic_links SET expires_at = now()
    WHERE email = $1 AND used_at IS NULL AND expires_at > now() AND EXISTS (SELECT 1 FROM target)
  ),
  link AS (
    INSERT INTO auth.magic_links (id, user_id, email, token_hash, code_hash, expires_at)
    SELECT $${firstParam}::uuid, id, $1::text, $${firstParam + 1}::bytea, $${firstParam + 2}::bytea, $${firstParam + 3}::timestamptz FROM target
    RETURNING user_id
  ),
  jobs AS (${outboxInsertSql('auth', firstParam + 4)} WHERE EXISTS (SELECT 1 FROM link))
  SELECT user_id FROM link`;

const linkParams = (link: NewMagicLink, jobs: readonly JobRequest[]) => [link.id, link.tokenHash, link.codeHash, link.expiresAt, ...outboxRows(jobs)];

const startFamilySql = (source: string, firstParam: number) => `
  INSERT INTO auth.refresh_tokens (id, family_id, user_id, token_hash, expires_at)
  SELECT $${firstParam}::uuid, $${firstParam + 1}::uuid, user_id, $${firstParam + 2}::bytea, $${firstParam + 3}::timestamptz FROM ${source}
  RETURNING user_id`;

const refreshParams = (token: NewRefreshToken) => [token.id, token.familyId, token.tokenHash, token.expiresAt];

export class SignInRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Issues a link for an existing user; returns the user id, or undefined (and writes nothing) for an unknown e-mail. */
  async issueForExistingUser(link: NewMagicLink, jobs: readonly JobRequest[]): Promise<string | undefined> {
    const rows: { user_id: string }[] = await this.dataSource.query(
      issueSql(`SELECT id FROM auth.users WHERE email = $1`, 2),
      [link.email, ...linkParams(link, jobs)],
    );
    return rows[0]?.user_id;
  }

  /**
   * Creates the invited user, or finds it and raises its role when the invite's is higher
   * (a role is never lowered by an invite, so an admin stays admin), then issues the link.
   */
  async inviteAndIssue(user: { id: string; role: UserRole; fullName: string | null }, link: NewMagicLink, jobs: readonly JobRequest[]): Promise<string> {
    const rows: { user_id: string }[] = await this.dataSource.query(
      issueSql(
        `INSERT INTO auth.users (id, email, role, full_name) VALUES ($2, $1, $3, $4)
         ON CONFLICT (email) DO UPDATE SET
           role = CASE WHEN users.role = 'admin' OR (users.role = 'coach' AND EXCLUDED.role = 'client') THEN users.role ELSE EXCLUDED.role END,
           full_name = COALESCE(users.full_name, EXCLUDED.full_name)
         RETURNING id`,
        5,
      ),
      [link.email, user.id, user.role, user.fullName, ...linkParams(link, jobs)],
    );
    const userId = rows[0]?.user_id;
    if (!userId) throw new Error(`invite of ${link.email} issued no link`);
    return userId;
  }

  /**
   * Spends a link's token and starts a session family in one statement. Exactly one of any number
   * of concurrent redemptions gets the row: the others find used_at already set.
   */
  async redeemToken(tokenHash: Buffer, refresh: NewRefreshToken): Promise<UserRow | undefined> {
    const rows: UserRow[] = await this.dataSource.query(
      `WITH spent AS (
         UPDATE auth.magic_links SET used_at = now()
         WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()
         RETURNING user_id
       ), fresh AS (${startFamilySql('spent', 2)})
       SELECT ${userColumns} FROM auth.users WHERE id = (SELECT user_id FROM fresh)`,
      [tokenHash, ...refreshParams(refresh)],
    );
    return rows[0];
  }

  /**
   * One guess at the code of the e-mail's open link, as one statement: the row lock serialises
   * guesses, so parallel guessing gets no more than MAX_CODE_ATTEMPTS tries either.
   */
  async redeemCode(email: string, codeHash: Buffer, refresh: NewRefreshToken): Promise<CodeAttempt> {
    const rows: (Partial<UserRow> & { matched: boolean; code_attempts: number })[] = await this.dataSource.query(
      `WITH attempt AS (
         UPDATE auth.magic_links m SET
           code_attempts = m.code_attempts + CASE WHEN m.code_hash = $2 THEN 0 ELSE 1 END,
           used_at = CASE WHEN m.code_hash = $2 THEN now() END
         WHERE m.id = (
             SELECT id FROM auth.magic_links
             WHERE email = $1 AND used_at IS NULL AND expires_at > now() AND code_attempts < ${MAX_CODE_ATTEMPTS}
             ORDER BY created_at DESC LIMIT 1)
           AND m.used_at IS NULL AND m.expires_at > now() AND m.code_attempts < ${MAX_CODE_ATTEMPTS}
         RETURNING m.user_id, m.used_at IS NOT NULL AS matched, m.code_attempts
       ), fresh AS (${startFamilySql('attempt WHERE matched', 3)})
       SELECT attempt.matched, attempt.code_attempts, ${userColumns
         .split(', ')
         .map((column) => `u.${column}`)
         .join(', ')}
       FROM attempt LEFT JOIN fresh ON true LEFT JOIN auth.users u ON u.id = fresh.user_id`,
      [email, codeHash, ...refreshParams(refresh)],
    );
    const row = rows[0];
    if (!row) return { outcome: 'no-open-code' };
    if (!row.matched) return { outcome: 'wrong-code', attemptsLeft: MAX_CODE_ATTEMPTS - row.code_attempts };
    return { outcome: 'signed-in', user: row as UserRow };
  }
}
