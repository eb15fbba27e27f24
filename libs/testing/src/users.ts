import { randomUUID } from 'node:crypto';
import type { UserRole } from '@spark/contracts';

/** Anything that runs SQL with parameters: a pg Client or Pool, a TypeORM DataSource. */
export interface SqlRunner {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

export interface TestUser {
  email: string;
  role?: UserRole;
  fullName?: string | null;
  id?: string;
}

/**
 * A user as the auth-service stores one, written straight into its table: the one place tests create people
 * without going through sign-up. Answers the user's id.
 */
export async function insertUser(db: SqlRunner, { email, role = 'client', fullName = null, id = randomUUID() }: TestUser): Promise<string> {
  await db.query(`INSERT INTO auth.users (id, email, role, full_name) VALUES ($1, $2, $3, $4)`, [id, email.toLowerCase(), role, fullName]);
  return id;
}

export interface TestProgress {
  userId: string;
  email: string;
  fullName?: string | null;
  goal?: string | null;
  timeZone?: string;
  /** How many days ago the evolution started (0: today). */
  daysIn?: number;
  evolutionDays?: number;
}

/** A client's progress as onboarding leaves it, written straight into the progress schema. */
export async function insertProgress(
  db: SqlRunner,
  { userId, email, fullName = null, goal = null, timeZone = 'UTC', daysIn = 0, evolutionDays = 90 }: TestProgress,
): Promise<void> {
  await db.query(
    `INSERT INTO progress.user_progress (user_id, email, full_name, transformation_goal, evolution_start_date, evolution_end_date, time_zone)
     VALUES ($1, $2, $3, $4, current_date - $5::int, current_date - $5::int + $6::int, $7)`,
    [userId, email.toLowerCase(), fullName, goal, daysIn, evolutionDays, timeZone],
  );
}
