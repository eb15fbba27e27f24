import type { UserRole } from '@spark/contracts';
import { escapeLike, type Keyed, type KeysetPosition } from '@spark/persistence';
import type { DataSource } from 'typeorm';
import { LIVE_ACCESS_WINDOW_SECONDS } from '../sessions/session-revocations';

export interface UserRow {
  id: string;
  email: string;
  role: UserRole;
  full_name: string | null;
  onboarding_completed_at: Date | null;
  transformation_goal: string | null;
  assigned_coach_id: string | null;
  created_at: Date;
}

export const userColumns = `id, email, role, full_name, onboarding_completed_at, transformation_goal, assigned_coach_id, created_at`;

/** The metadata a user may change about themselves; absent keys stay as they are. */
export interface OwnMetadataChanges {
  full_name?: string | null;
  onboarding_completed_at?: string | null;
  transformation_goal?: string | null;
}

/**
 * Waits out a role change of the person `userIdSql` selects (it holds their row FOR UPDATE until it commits). A
 * sign-in or refresh runs this first, then starts its session in a statement of its own, which sees the change whole:
 * the new role, and every token it revoked. One statement begun during the change would read the old role and add a
 * session the change never revoked, and a refresh that had taken its token first would deadlock with the change.
 */
export const waitForRoleChangeSql = (userIdSql: string) => `SELECT 1 FROM auth.users WHERE id = (${userIdSql}) FOR SHARE`;

export type RoleChange = { outcome: 'actor-not-admin' | 'user-not-found' | 'last-admin' } | { outcome: 'unchanged' | 'changed'; user: UserRow };

export class UsersRepository {
  constructor(private readonly dataSource: DataSource) {}

  async findById(id: string): Promise<UserRow | undefined> {
    const rows: UserRow[] = await this.dataSource.query(`SELECT ${userColumns} FROM auth.users WHERE id = $1`, [id]);
    return rows[0];
  }

  async updateOwnMetadata(id: string, changes: OwnMetadataChanges): Promise<UserRow | undefined> {
    // Each column is written only when its key was sent ($n IS TRUE), so null can clear a field.
    const rows: [UserRow[], number] = await this.dataSource.query(
      `UPDATE auth.users SET
         full_name = CASE WHEN $2 THEN $3 ELSE full_name END,
         onboarding_completed_at = CASE WHEN $4 THEN $5::timestamptz ELSE onboarding_completed_at END,
         transformation_goal = CASE WHEN $6 THEN $7 ELSE transformation_goal END
       WHERE id = $1 RETURNING ${userColumns}`,
      [
        id,
        'full_name' in changes,
        changes.full_name ?? null,
        'onboarding_completed_at' in changes,
        changes.onboarding_completed_at ?? null,
        'transformation_goal' in changes,
        changes.transformation_goal ?? null,
      ],
    );
    return rows[0][0];
  }

  /**
   * One page, newest first, after `after` when given, of the users whose e-mail starts with
   * `emailPrefix` when given; `limit + 1` rows tell whether more exist.
   */
  async listNewest(filter: { role?: UserRole; emailPrefix?: string }, after: KeysetPosition | undefined, limit: number): Promise<Keyed<UserRow>[]> {
    return this.dataSource.query(
      `SELECT ${userColumns}, created_at::text AS cursor_at FROM auth.users
       WHERE ($1::text IS NULL OR role = $1)
         AND ($2::timestamptz IS NULL OR (created_at, id) < ($2::timestamptz, $3::uuid))
         AND ($5::text IS NULL OR email LIKE $5)
       ORDER BY created_at DESC, id DESC LIMIT $4`,
      [filter.role ?? null, after?.key ?? null, after?.id ?? null, limit + 1, filter.emailPrefix ? `${escapeLike(filter.emailPrefix)}%` : null],
    );
  }

  /**
   * Creates or updates a user with exactly this role (an operator's command, so it may also lower
   * a role). `created` tells a new row from an update.
   */
  async upsertWithRole(user: { id: string; email: string; role: UserRole; fullName: string | null }): Promise<UserRow & { created: boolean }> {
    const rows: (UserRow & { created: boolean })[] = await this.dataSource.query(
      `INSERT INTO auth.users (id, email, role, full_name) VALUES ($1, $2, $3, $4)
       ON CONFLICT (email) DO UPDATE SET role = EXCLUDED.role, full_name = COALESCE(EXCLUDED.full_name, users.full_name)
       RETURNING ${userColumns}, (xmax = 0) AS created`,
      [user.id, user.email, user.role, user.fullName],
    );
    const row = rows[0];
    if (!row) throw new Error(`upsert of ${user.email} returned no row`);
    return row;
  }

  /**
   * Gives `userId` the role `role` on behalf of `actorId`, who must be an admin now, in one
   * transaction that locks the actor, the user and every admin (in id order, so concurrent changes
   * cannot deadlock): two admins demoting each other at once leave one admin, never none. A change
   * revokes every refresh token of the user; `beforeCommit` gets the families whose access tokens
   * may still live (a token of theirs is recent) and runs while the rows are still locked, so no
   * refresh can mint a token with the old role after it.
   */
  async setRole(actorId: string, userId: string, role: UserRole, beforeCommit: (liveFamilies: string[]) => Promise<void>): Promise<RoleChange> {
    return this.dataSource.transaction(async (manager) => {
      const locked = (await manager.query(`SELECT id, role FROM auth.users WHERE id IN ($1, $2) OR role = 'admin' ORDER BY id FOR UPDATE`, [
        actorId,
        userId,
      ])) as { id: string; role: UserRole }[];
      const admins = locked.filter((row) => row.role === 'admin');
      const target = locked.find((row) => row.id === userId);
      if (!admins.some((row) => row.id === actorId)) return { outcome: 'actor-not-admin' };
      if (!target) return { outcome: 'user-not-found' };
      if (target.role !== role && target.role === 'admin' && admins.length === 1) return { outcome: 'last-admin' };
      if (target.role === role) {
        const [unchanged] = (await manager.query(`SELECT ${userColumns} FROM auth.users WHERE id = $1`, [userId])) as UserRow[];
        return unchanged ? { outcome: 'unchanged', user: unchanged } : { outcome: 'user-not-found' };
      }
      const rows = (await manager.query(
        `WITH revoked AS (
           UPDATE auth.refresh_tokens SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL RETURNING family_id, created_at
         ), changed AS (
           UPDATE auth.users SET role = $2 WHERE id = $1 RETURNING ${userColumns}
         )
         SELECT changed.*, ARRAY(
           SELECT DISTINCT family_id FROM revoked WHERE created_at > now() - make_interval(secs => $3)
         ) AS live_families FROM changed`,
        [userId, role, LIVE_ACCESS_WINDOW_SECONDS],
      )) as (UserRow & { live_families: string[] })[];
      const changed = rows[0];
      if (!changed) return { outcome: 'user-not-found' };
      const { live_families: liveFamilies, ...user } = changed;
      await beforeCommit(liveFamilies);
      return { outcome: 'changed', user };
    });
  }
}
