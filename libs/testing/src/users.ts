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
