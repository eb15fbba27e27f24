import { randomBytes, randomUUID } from 'node:crypto';
import { openMigrated } from '@spark/persistence';
import { createTestDatabase, eventually, insertUser, lockWaiters, type TestDatabase } from '@spark/testing';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { authMigrations } from '../migrations';
import { SESSION_RENEWALS, SessionsRepository } from './sessions.repository';

describe('SessionsRepository against a real PostgreSQL', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let blocker: Client;
  let sessions: SessionsRepository;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await openMigrated({ url: database.url, schema: 'auth', migrations: authMigrations });
    blocker = new Client({ connectionString: database.url });
    await blocker.connect();
    sessions = new SessionsRepository(dataSource);
  });
  afterAll(async () => {
    await blocker?.end();
    await dataSource?.destroy();
    await database?.drop();
  });

  /** A signed-in session: one live refresh token in a new family. */
  async function signedIn(): Promise<Buffer> {
    const userId = await insertUser(dataSource, { email: `${randomUUID()}@example.com` });
    const tokenHash = randomBytes(32);
    await dataSource.query(
      `INSERT INTO auth.refresh_tokens (id, family_id, user_id, token_hash, expires_at) VALUES ($1, $2, $3, $4, now() + interval '1 day')`,
      [randomUUID(), randomUUID(), userId, tokenHash],
    );
    return tokenHash;
  }

  /**
   * Holds `refreshing`'s row while a refresh of it and then `ending` queue behind the hold, in that order, then lets
   * both run; answers the token the refresh handed out, which must be dead once `ending` has run.
   */
  async function refreshWhileEnding(refreshing: Buffer, ending: () => Promise<string | undefined>): Promise<Buffer> {
    await blocker.query('BEGIN');
    await blocker.query('SELECT 1 FROM auth.refresh_tokens WHERE token_hash = $1 FOR UPDATE', [refreshing]);
    const successor = { id: randomUUID(), tokenHash: randomBytes(32) };
    const refreshed = sessions.rotate(refreshing, successor);
    // Asked on the pool, not on `blocker`, whose open transaction would keep showing its first look.
    await eventually(async () => (await lockWaiters(dataSource)) === 1, 10_000, 'the refresh waiting');
    const ended = ending();
    await eventually(async () => (await lockWaiters(dataSource)) === 2, 10_000, 'the revocation waiting');
    await blocker.query('COMMIT');
    expect(await refreshed).toBeDefined();
    expect(await ended).toBeDefined();
    return successor.tokenHash;
  }

  const refreshable = async (tokenHash: Buffer) => (await sessions.rotate(tokenHash, { id: randomUUID(), tokenHash: randomBytes(32) })) !== undefined;

  // A page's token refresh and a sign-out from the same browser can reach the server together.
  it('ends the session on sign-out even when a refresh rotated its token at the same moment', async () => {
    const presented = await signedIn();
    const handedOut = await refreshWhileEnding(presented, () => sessions.revokeFamily(presented));
    // The browser may keep the refresh's cookie: its token must be dead too.
    expect(await refreshable(handedOut)).toBe(false);
  });

  type RotatedTo = { presented: Buffer; successor: { id: string; tokenHash: Buffer } };

  /**
   * Rotates a fresh session's token to a successor, then holds the successor's row while `first` and then `second` queue behind
   * the hold, in that order, and lets both run; answers what each returned.
   */
  async function inOrderOnSuccessor(first: (rotated: RotatedTo) => Promise<unknown>, second: (rotated: RotatedTo) => Promise<unknown>) {
    const presented = await signedIn();
    const successor = { id: randomUUID(), tokenHash: randomBytes(32) };
    expect(await sessions.rotate(presented, successor)).toBeDefined();
    const rotated = { presented, successor };
    await blocker.query('BEGIN');
    await blocker.query('SELECT 1 FROM auth.refresh_tokens WHERE token_hash = $1 FOR UPDATE', [successor.tokenHash]);
    const firstDone = first(rotated);
    await eventually(async () => (await lockWaiters(dataSource)) === 1, 10_000, 'the first waiting');
    const secondDone = second(rotated);
    await eventually(async () => (await lockWaiters(dataSource)) === 2, 10_000, 'the second waiting');
    await blocker.query('COMMIT');
    return Promise.all([firstDone, secondDone]);
  }
  // What the service does with a cookie presented again: it derives the same successor.
  const repeat = ({ presented, successor }: RotatedTo) => sessions.rotate(presented, { id: randomUUID(), tokenHash: successor.tokenHash });
  const rotateSuccessor = ({ successor }: RotatedTo) => sessions.rotate(successor.tokenHash, { id: randomUUID(), tokenHash: randomBytes(32) });

  it('refuses a spent token presented again when its successor is rotated at that moment: the holder moved on', async () => {
    const [rotatedOn, repeated] = await inOrderOnSuccessor(rotateSuccessor, repeat);
    expect(rotatedOn).toBeDefined();
    expect(repeated).toBeUndefined();
  });

  it('hands the successor out again when the repeat comes first, and the successor then rotates normally', async () => {
    const [repeated, rotatedOn] = await inOrderOnSuccessor(repeat, rotateSuccessor);
    expect(repeated).toBeDefined();
    expect(rotatedOn).toBeDefined();
  });

  it('counts a repeat as a renewal: a family that used up its renewals gets a wait, not its successor again', async () => {
    const presented = await signedIn();
    const successor = { id: randomUUID(), tokenHash: randomBytes(32) };
    expect(await sessions.rotate(presented, successor)).toBeDefined();
    await dataSource.query(`UPDATE auth.refresh_tokens SET renewals_in_window = $2 WHERE token_hash = $1`, [successor.tokenHash, SESSION_RENEWALS.max]);
    const repeated = await repeat({ presented, successor });
    expect(repeated && 'retryAfterSeconds' in repeated && repeated.retryAfterSeconds).toBeGreaterThan(0);
  });

  it('ends the session when a spent token comes back, even while its holder refreshes the live one', async () => {
    const stolen = await signedIn();
    const live = { id: randomUUID(), tokenHash: randomBytes(32) };
    expect(await sessions.rotate(stolen, live)).toBeDefined();
    const handedOut = await refreshWhileEnding(live.tokenHash, () => sessions.revokeFamilyIfSpent(stolen));
    expect(await refreshable(handedOut)).toBe(false);
  });
});
