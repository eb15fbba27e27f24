import { CODE_GUESS_LIMIT, type UserRole } from '@spark/contracts';
import { type JobRequest, outboxInsertSql, outboxRows } from '@spark/jobs';
import type { DataSource } from 'typeorm';
import { expiredRowsSql } from '../expired-rows';
import { type UserRow, userColumns, waitForRoleChangeSql } from '../users/users.repository';

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

/** A refused guess does not say why (wrong, no open code, unknown address, paused): all look alike. */
export type CodeAttempt = { outcome: 'refused'; ownerTold: boolean } | { outcome: 'signed-in'; user: UserRow };

export const MAX_CODE_ATTEMPTS = 5;

// The address's row in auth.code_guesses; computed in SQL, so a used link can find it too.
const guessedAddress = (param: string) => `sha256(convert_to(${param}::text, 'UTF8'))`;
const guessWindow = `interval '${CODE_GUESS_LIMIT.hours} hours'`;

/** Takes (and locks) the address's row, starting a new window when the last one passed. */
const takeGuessRowSql = `
  INSERT INTO auth.code_guesses (email_hash, resets_at) VALUES (${guessedAddress('$1')}, now() + ${guessWindow})
  ON CONFLICT (email_hash) DO UPDATE SET
    failures = CASE WHEN code_guesses.resets_at > now() THEN code_guesses.failures ELSE 0 END,
    resets_at = CASE WHEN code_guesses.resets_at > now() THEN code_guesses.resets_at ELSE EXCLUDED.resets_at END
  RETURNING failures`;

// A few rows of other addresses whose window passed, never waiting for a row another guess holds.
const pruneSql = `
  DELETE FROM auth.code_guesses WHERE email_hash IN (
    SELECT email_hash FROM auth.code_guesses WHERE resets_at < now() AND email_hash <> ${guessedAddress('$1')}
    LIMIT 2 FOR UPDATE SKIP LOCKED)`;

/**
 * The CTEs that issue the link of the user a `target` CTE yields (its `id` and any other columns, or no row): voiding
 * the e-mail's older open links and writing the e-mail job, `link` yielding the new link's `user_id`. When there is a
 * target, they also remove a few long-expired links of anyone: for an unknown address a sign-in must write nothing, or
 * its commit would wait for the WAL flush a known one skips.
 */
const issueCtes = (firstParam: number) => `
  pruned AS (${expiredRowsSql('auth.magic_links', 'EXISTS (SELECT 1 FROM target)')}),
  voided AS (
    UPDATE auth.magic_links SET expires_at = now()
    WHERE email = $1 AND used_at IS NULL AND expires_at > now() AND EXISTS (SELECT 1 FROM target)
  ),
  link AS (
    INSERT INTO auth.magic_links (id, user_id, email, token_hash, code_hash, expires_at)
    SELECT $${firstParam}::uuid, id, $1::text, $${firstParam + 1}::bytea, $${firstParam + 2}::bytea, $${firstParam + 3}::timestamptz FROM target
    RETURNING user_id
  ),
  jobs AS (${outboxInsertSql('auth', firstParam + 4)} WHERE EXISTS (SELECT 1 FROM link))`;

/** Issues the link of the `target` CTE's user in one statement; answers the target's columns and `user_id`. */
const issueSql = (target: string, firstParam: number) => `
  WITH target AS (${target}),
  ${issueCtes(firstParam)}
  SELECT target.*, link.user_id FROM link JOIN target ON target.id = link.user_id`;

/**
 * Creates or finds the invited user ($1 e-mail, $2 id, $3 role, $4 name) and issues its link, unless the invitation
 * has a key ($5) this person was invited under already and the link that invitation issued has not lapsed: then it
 * writes no link and no e-mail, and the first invitation's link stays the one that works. A lapsed key is taken over
 * with the new link's lapse. A key taken by a concurrent invitation waits for it to commit or roll back; the lapse is
 * read from the key's own row, so the waiting one sees the winner's. An account of another role is left as it is:
 * no name, key, link or e-mail, and its own open links keep working (a client lead under a team member's address
 * must not reach their mailbox or cut their sign-in short).
 */
const inviteSql = `
  WITH invited AS (
    INSERT INTO auth.users (id, email, role, full_name)
    SELECT $2, $1, $3, $4 WHERE NOT EXISTS (SELECT 1 FROM auth.account_deletions WHERE email = $1 AND completed_at IS NULL)
    ON CONFLICT (email) DO UPDATE
      SET full_name = CASE WHEN users.role = EXCLUDED.role THEN COALESCE(users.full_name, EXCLUDED.full_name) ELSE users.full_name END
    RETURNING id, role
  ),
  invited_as_role AS (SELECT * FROM invited WHERE role = $3),
  keyed AS (
    INSERT INTO auth.invitation_keys (user_id, invitation_key, link_expires_at)
    SELECT id, $5::text, $9::timestamptz /* the new link's expiry, from linkParams */ FROM invited_as_role WHERE $5::text IS NOT NULL
    ON CONFLICT (user_id, invitation_key) DO UPDATE SET link_expires_at = EXCLUDED.link_expires_at, created_at = now()
    WHERE invitation_keys.link_expires_at <= now()
    RETURNING user_id
  ),
  target AS (SELECT * FROM invited_as_role WHERE $5::text IS NULL OR EXISTS (SELECT 1 FROM keyed)),
  ${issueCtes(6)}
  SELECT invited.id AS user_id, invited.role, EXISTS (SELECT 1 FROM link) AS issued FROM invited`;

const linkParams = (link: NewMagicLink, jobs: readonly JobRequest[]) => [link.id, link.tokenHash, link.codeHash, link.expiresAt, ...outboxRows(jobs)];

const startFamilySql = (source: string, firstParam: number) => `
  INSERT INTO auth.refresh_tokens (id, family_id, user_id, token_hash, expires_at)
  SELECT $${firstParam}::uuid, $${firstParam + 1}::uuid, user_id, $${firstParam + 2}::bytea, $${firstParam + 3}::timestamptz FROM ${source}
  RETURNING user_id`;

const refreshParams = (token: NewRefreshToken) => [token.id, token.familyId, token.tokenHash, token.expiresAt];

export class SignInRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Issues a link for an existing user; returns the user id, or undefined (and writes nothing) for
   * an unknown e-mail. A known address's commit does not wait for the WAL flush (set_config is
   * evaluated for the found user only): an unknown address writes nothing, and a flush wait would
   * make a known one measurably slower. A crash in that instant loses the link, and the person asks again.
   */
  async issueForExistingUser(link: NewMagicLink, jobs: readonly JobRequest[]): Promise<string | undefined> {
    const rows: { user_id: string }[] = await this.dataSource.query(
      issueSql(`SELECT id FROM auth.users WHERE email = $1 AND set_config('synchronous_commit', 'off', true) = 'off'`, 2),
      [link.email, ...linkParams(link, jobs)],
    );
    return rows[0]?.user_id;
  }

  /**
   * Creates the invited user with the invite's role, or finds it and keeps its role (an invite
   * never changes one; an admin does that explicitly), then issues the link, unless this person was
   * invited under `invitationKey` already or the account has another role (`issued` false: no link, no e-mail).
   * Returns the user, the role the account has, and whether a link was issued; nothing, and writes nothing, while a
   * deletion of an account under the address is still under way.
   */
  async inviteAndIssue(
    user: { id: string; role: UserRole; fullName: string | null },
    link: NewMagicLink,
    jobs: readonly JobRequest[],
    invitationKey?: string,
  ): Promise<{ userId: string; role: UserRole; issued: boolean } | undefined> {
    const rows = await this.dataSource.transaction(async (manager) => {
      // A deletion being confirmed holds the account's row until it commits: waiting for it here lets the invite's
      // own statement, which reads the data as it starts, see that deletion under way.
      await manager.query('SELECT 1 FROM auth.users WHERE email = $1 FOR UPDATE', [link.email]);
      return (await manager.query(inviteSql, [link.email, user.id, user.role, user.fullName, invitationKey ?? null, ...linkParams(link, jobs)])) as {
        user_id: string;
        role: UserRole;
        issued: boolean;
      }[];
    });
    const invited = rows[0];
    if (!invited) return undefined;
    if (!invited.issued && invitationKey === undefined && invited.role === user.role) throw new Error(`invite of ${link.email} issued no link`);
    return { userId: invited.user_id, role: invited.role, issued: invited.issued };
  }

  /** The address of an open (unused, unexpired) link, without spending it. */
  async findOpenLink(tokenHash: Buffer): Promise<string | undefined> {
    const rows: { email: string }[] = await this.dataSource.query(
      `SELECT email FROM auth.magic_links WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()`,
      [tokenHash],
    );
    return rows[0]?.email;
  }

  /**
   * Spends a link's token and starts a session family in one statement. Exactly one of any number
   * of concurrent redemptions gets the row: the others find used_at already set. A used link proves
   * the mailbox, so it also clears the address's wrong codes (and a pause); it skips the row while a
   * code guess holds it, rather than wait for it (guesses take that row first, then the link's).
   */
  async redeemToken(tokenHash: Buffer, refresh: NewRefreshToken): Promise<UserRow | undefined> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(waitForRoleChangeSql('SELECT user_id FROM auth.magic_links WHERE token_hash = $1'), [tokenHash]);
      const rows: UserRow[] = await manager.query(
        `WITH spent AS (
         UPDATE auth.magic_links SET used_at = now()
         WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()
         RETURNING user_id, email
       ), fresh AS (${startFamilySql('spent', 2)}),
       forgiven AS (
         DELETE FROM auth.code_guesses WHERE email_hash IN (
           SELECT email_hash FROM auth.code_guesses WHERE email_hash = ${guessedAddress('(SELECT email FROM spent)')} FOR UPDATE SKIP LOCKED)
       )
       SELECT ${userColumns} FROM auth.users WHERE id = (SELECT user_id FROM fresh)`,
        [tokenHash, ...refreshParams(refresh)],
      );
      return rows[0];
    });
  }

  /**
   * One guess at the code of the e-mail's open link. Every guess at an address, with or without an
   * account, first takes the address's row in auth.code_guesses and keeps it to the end of its
   * transaction, so guesses at one address run one at a time: parallel guessing gets no more tries
   * than sequential guessing, per code (MAX_CODE_ATTEMPTS) or per address (CODE_GUESS_LIMIT). Known
   * and unknown addresses run the same statements. The guess that reaches the limit writes the
   * owner's `lockout` e-mail, if the address has an account.
   */
  async redeemCode(email: string, codeHash: Buffer, refresh: NewRefreshToken, lockout: JobRequest): Promise<CodeAttempt> {
    return this.dataSource.transaction(async (manager) => {
      // The person's row before the address's guess row, as a role change and a deletion take them.
      await manager.query(waitForRoleChangeSql('SELECT id FROM auth.users WHERE email = $1'), [email]);
      const [guesses] = (await manager.query(takeGuessRowSql, [email])) as { failures: number }[];
      if ((guesses?.failures ?? 0) >= CODE_GUESS_LIMIT.failures) return { outcome: 'refused', ownerTold: false };
      const [user] = (await manager.query(
        `WITH attempt AS (
           UPDATE auth.magic_links m SET
             code_attempts = m.code_attempts + CASE WHEN m.code_hash = $2 THEN 0 ELSE 1 END,
             used_at = CASE WHEN m.code_hash = $2 THEN now() END
           WHERE m.id = (
               SELECT id FROM auth.magic_links
               WHERE email = $1 AND used_at IS NULL AND expires_at > now() AND code_attempts < ${MAX_CODE_ATTEMPTS}
               ORDER BY created_at DESC LIMIT 1)
             AND m.used_at IS NULL AND m.expires_at > now() AND m.code_attempts < ${MAX_CODE_ATTEMPTS}
           RETURNING m.user_id, m.used_at IS NOT NULL AS matched
         ), fresh AS (${startFamilySql('attempt WHERE matched', 3)})
         SELECT ${userColumns} FROM auth.users WHERE id = (SELECT user_id FROM fresh)`,
        [email, codeHash, ...refreshParams(refresh)],
      )) as UserRow[];
      if (user) {
        await manager.query(`WITH pruned AS (${pruneSql}) DELETE FROM auth.code_guesses WHERE email_hash = ${guessedAddress('$1')}`, [email]);
        return { outcome: 'signed-in', user };
      }
      const [counted] = (await manager.query(
        `WITH pruned AS (${pruneSql}),
         counted AS (
           UPDATE auth.code_guesses SET
             failures = failures + 1,
             resets_at = CASE WHEN failures + 1 >= $2 THEN now() + ${guessWindow} ELSE resets_at END
           WHERE email_hash = ${guessedAddress('$1')}
           RETURNING failures
         ),
         told AS (
           ${outboxInsertSql('auth', 3)}
           WHERE (SELECT failures FROM counted) = $2 AND EXISTS (SELECT 1 FROM auth.users WHERE email = $1)
           RETURNING 1
         )
         SELECT EXISTS (SELECT 1 FROM told) AS owner_told`,
        [email, CODE_GUESS_LIMIT.failures, ...outboxRows([lockout])],
      )) as { owner_told: boolean }[];
      return { outcome: 'refused', ownerTold: counted?.owner_told ?? false };
    });
  }
}
