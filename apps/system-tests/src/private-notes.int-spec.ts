import { randomUUID } from 'node:crypto';
import { JwtService } from '@nestjs/jwt';
import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER, errorBodySchema, privateNotePageSchema, type UserRole } from '@spark/contracts';
import { insertProgress } from '@spark/testing';
import { Client } from 'pg';
import { type InProcessStack, startInProcessStack } from './in-process-stack';

const JWT_SECRET = 'private-notes-test-secret-0123456789';
const jwt = new JwtService({ secret: JWT_SECRET });
const tokenFor = (role: UserRole, id = randomUUID()) =>
  jwt.sign({ sub: id, email: `${role}-${id.slice(0, 8)}@spark.test`, role }, { issuer: ACCESS_TOKEN_ISSUER, audience: ACCESS_TOKEN_AUDIENCE, expiresIn: 600 });

describe("a coach's private notes on a client, page by page", () => {
  let stack: InProcessStack;
  let db: Client;
  const coachId = randomUUID();
  const coach = tokenFor('coach', coachId);
  const get = (path: string, token: string | null = coach) =>
    fetch(`${stack.baseUrl}${path}`, { headers: token === null ? {} : { authorization: `Bearer ${token}` } });
  const notesPath = (userId: string) => `/api/progress/clients/${userId}/private-notes`;

  /** A client with `count` notes a minute apart, three to each minute, so many share a created_at. */
  const seedClient = async (count: number) => {
    const userId = randomUUID();
    await insertProgress(db, { userId, email: `client-${userId.slice(0, 8)}@spark.test` });
    await db.query(
      `INSERT INTO progress.coach_private_notes (user_id, coach_id, note, created_at)
       SELECT $1, $2, 'Note ' || n, date_trunc('second', now()) - interval '1 day' + (n / 3) * interval '1 minute'
       FROM generate_series(1, $3::int) n`,
      [userId, coachId, count],
    );
    const stored = await db.query<{ id: string; note: string }>(
      `SELECT id, note FROM progress.coach_private_notes WHERE user_id = $1 ORDER BY created_at DESC, id DESC`,
      [userId],
    );
    return { userId, stored: stored.rows };
  };

  const readAll = async (userId: string, limit?: number) => {
    const pages = [];
    let cursor: string | null = '';
    while (cursor !== null && pages.length < 20) {
      const query = new URLSearchParams();
      if (limit) query.set('limit', String(limit));
      if (cursor) query.set('cursor', cursor);
      const response = await get(`${notesPath(userId)}?${query.toString()}`);
      expect(response.status).toBe(200);
      const page = privateNotePageSchema.parse(await response.json());
      pages.push(page);
      cursor = page.nextCursor;
    }
    return pages;
  };

  beforeAll(async () => {
    stack = await startInProcessStack({ withNotifier: false, env: { JWT_SECRET } });
    db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await stack.stop();
  });

  it('gives 120 notes newest first in pages of 25 by default, every note exactly once, notes of the same second included', async () => {
    const { userId, stored } = await seedClient(120);
    const pages = await readAll(userId);
    expect(pages.map((page) => page.items.length)).toEqual([25, 25, 25, 25, 20]);
    const read = pages.flatMap((page) => page.items);
    expect(read.map((note) => note.id)).toEqual(stored.map((note) => note.id));
    expect(new Set(read.map((note) => note.id)).size).toBe(120);
  });

  it('pages by the limit asked for, splitting notes of the same created_at between pages without losing one', async () => {
    const { userId, stored } = await seedClient(120);
    const pages = await readAll(userId, 7);
    expect(pages.every((page, index) => page.items.length === (index < pages.length - 1 ? 7 : 120 % 7))).toBe(true);
    expect(pages.flatMap((page) => page.items.map((note) => note.id))).toEqual(stored.map((note) => note.id));
  });

  it('puts a note the coach has just added at the top of the first page', async () => {
    const { userId } = await seedClient(30);
    const added = await fetch(`${stack.baseUrl}${notesPath(userId)}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${coach}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify({ note: 'Just now' }),
    });
    expect(added.status).toBe(201);
    const first = privateNotePageSchema.parse(await (await get(notesPath(userId))).json());
    expect(first.items[0]?.note).toBe('Just now');
    expect(first.nextCursor).not.toBeNull();
  });

  it.each([
    ['a cursor that is not ours', 'cursor=not-a-cursor', 'cursor'],
    ['a cursor whose key is no timestamp', `cursor=${Buffer.from(`2026-11-23|${randomUUID()}`).toString('base64url')}`, 'cursor'],
    ['a limit of 0', 'limit=0', 'limit'],
    ['a limit over 100', 'limit=101', 'limit'],
    ['a limit that is no number', 'limit=ten', 'limit'],
  ])('answers %s with 400 and the field at fault', async (_case, query, field) => {
    const { userId } = await seedClient(3);
    const response = await get(`${notesPath(userId)}?${query}`);
    expect(response.status).toBe(400);
    expect(errorBodySchema.parse(await response.json()).fieldErrors?.[field]?.length).toBeGreaterThan(0);
  });

  it('lets coaches and admins read them, not a client (403) nor a caller without a token (401)', async () => {
    const { userId } = await seedClient(3);
    expect((await get(notesPath(userId), tokenFor('admin'))).status).toBe(200);
    expect((await get(notesPath(userId), tokenFor('client', userId))).status).toBe(403);
    expect((await get(notesPath(userId), null)).status).toBe(401);
  });
});
