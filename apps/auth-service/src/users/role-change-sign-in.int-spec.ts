import { randomBytes, randomUUID } from 'node:crypto';
import { openMigrated } from '@spark/persistence';
import { createTestDatabase, eventually, insertUser, lockWaiters, type TestDatabase } from '@spark/testing';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { authMigrations } from '../migrations';
import { SessionsRepository } from '../sessions/sessions.repository';
import { SignInRepository } from '../sign-in/sign-in.repository';
import { UsersRepository } from './users.repository';

// A role change revokes the person's sessions and marks their older access tokens void. A sign-in or refresh that
// arrives while the change is being made must come out of it with the new role, or with no session: never with a
// token of the old role that the change's marks do not reach.
describe('signing in while an admin changes the role, or the account is deleted (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let blocker: Client;
  let users: UsersRepository;
  let signIn: SignInRepository;
  let sessions: SessionsRepository;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await openMigrated({ url: database.url, schema: 'auth', migrations: authMigrations, poolSize: 4 });
    blocker = new Client({ connectionString: database.url });
    await blocker.connect();
    users = new UsersRepository(dataSource);
    signIn = new SignInRepository(dataSource);
    sessions = new SessionsRepository(dataSource);
  });
  afterAll(async () => {
    await blocker?.end();
    await dataSource?.destroy();
    await database?.drop();
  });

  const newRefresh = () => ({ id: randomUUID(), familyId: randomUUID(), tokenHash: randomBytes(32), expiresAt: new Date(Date.now() + 86_400_000) });
  const coachWithLink = async () => {
    const email = `coach-${randomUUID()}@example.com`;
    const coachId = await insertUser(dataSource, { email, role: 'coach' });
    const tokenHash = randomBytes(32);
    const codeHash = randomBytes(32);
    await dataSource.query(
      `INSERT INTO auth.magic_links (id, user_id, email, token_hash, code_hash, expires_at) VALUES ($1, $2, $3, $4, $5, now() + interval '1 hour')`,
      [randomUUID(), coachId, email, tokenHash, codeHash],
    );
    return { coachId, email, tokenHash, codeHash };
  };

  /** Demotes `userId` to client; `meanwhile` runs after the change's writes and before its commit. */
  const demoteWhile = async <T>(userId: string, meanwhile: () => Promise<T>): Promise<T> => {
    const adminId = await insertUser(dataSource, { email: `admin-${randomUUID()}@example.com`, role: 'admin' });
    let during: Promise<T> | undefined;
    const change = await users.setRole(adminId, userId, 'client', async () => {
      during = meanwhile();
      // The sign-in has reached the person's row, which the change holds.
      await eventually(async () => (await lockWaiters(dataSource)) > 0, 10_000, 'the sign-in waiting for the role change');
    });
    expect(change.outcome).toBe('changed');
    return (await during) as T;
  };

  it('a link spent during the change signs in with the new role', async () => {
    const { coachId, tokenHash } = await coachWithLink();
    const user = await demoteWhile(coachId, () => signIn.redeemToken(tokenHash, newRefresh()));
    expect(user).toMatchObject({ id: coachId, role: 'client' });
  });

  it("the link's code entered during the change signs in with the new role", async () => {
    const { coachId, email, codeHash } = await coachWithLink();
    const attempt = await demoteWhile(coachId, () =>
      signIn.redeemCode(email, codeHash, newRefresh(), { queue: 'mail', name: 'code-sign-in-locked', data: { email } }),
    );
    expect(attempt).toMatchObject({ outcome: 'signed-in', user: { id: coachId, role: 'client' } });
  });

  it('a refresh begun just before the change ends with no session, and the change goes through', async () => {
    const { coachId } = await coachWithLink();
    const tokenHash = randomBytes(32);
    await dataSource.query(
      `INSERT INTO auth.refresh_tokens (id, family_id, user_id, token_hash, expires_at) VALUES ($1, $2, $3, $4, now() + interval '1 day')`,
      [randomUUID(), randomUUID(), coachId, tokenHash],
    );
    // The change has locked the person and not yet revoked their tokens when the refresh arrives.
    await blocker.query('BEGIN');
    await blocker.query(`SELECT 1 FROM auth.users WHERE id = $1 FOR UPDATE`, [coachId]);
    const refreshed = sessions.rotate(tokenHash, { id: randomUUID(), tokenHash: randomBytes(32) });
    await eventually(async () => (await lockWaiters(dataSource)) > 0, 10_000, 'the refresh waiting for the role change');
    await blocker.query(`UPDATE auth.refresh_tokens SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL`, [coachId]);
    await blocker.query(`UPDATE auth.users SET role = 'client' WHERE id = $1`, [coachId]);
    await blocker.query('COMMIT');
    expect(await refreshed).toBeUndefined();
  });

  it("a code typed while the person's account is being deleted waits for it, and does not deadlock with it", async () => {
    const { coachId, email } = await coachWithLink();
    const wrongGuess = () => signIn.redeemCode(email, randomBytes(32), newRefresh(), { queue: 'mail', name: 'code-sign-in-locked', data: { email } });
    // An earlier wrong guess left the address its row of guesses.
    expect((await wrongGuess()).outcome).not.toBe('signed-in');
    // A deletion's confirmation holds the person's row, then clears the address's code guesses.
    await blocker.query('BEGIN');
    await blocker.query(`SELECT 1 FROM auth.users WHERE id = $1 FOR UPDATE`, [coachId]);
    const attempt = wrongGuess();
    await eventually(async () => (await lockWaiters(dataSource)) > 0, 10_000, 'the code waiting for the deletion');
    await blocker.query(`DELETE FROM auth.code_guesses WHERE email_hash = sha256(convert_to($1::text, 'UTF8'))`, [email]);
    await blocker.query(`DELETE FROM auth.users WHERE id = $1`, [coachId]);
    await blocker.query('COMMIT');
    expect((await attempt).outcome).not.toBe('signed-in');
  });
});
