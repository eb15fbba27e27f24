import { randomUUID } from 'node:crypto';
import { JwtService } from '@nestjs/jwt';
import {
  ACCESS_TOKEN_AUDIENCE,
  ACCESS_TOKEN_ISSUER,
  coachNoteSchema,
  errorBodySchema,
  homeResponseSchema,
  recordSparkResponseSchema,
  sparkPageSchema,
  sparkSchema,
  type UserRole,
} from '@spark/contracts';
import { ObjectStorage } from '@spark/storage';
import { Client } from 'pg';
import sharp from 'sharp';
import { type InProcessStack, startInProcessStack } from './in-process-stack';
import { TINY_PNG } from '@spark/testing';

const JWT_SECRET = 'sparks-system-test-secret';
const jwt = new JwtService({ secret: JWT_SECRET, signOptions: { algorithm: 'HS256' } });

// The same claims auth-service signs; the gateway cannot tell the difference.
const tokenFor = (user: { id: string; email: string; role: UserRole }) =>
  jwt.sign({ sub: user.id, email: user.email, role: user.role }, { expiresIn: 900, issuer: ACCESS_TOKEN_ISSUER, audience: ACCESS_TOKEN_AUDIENCE });

const newUser = (role: UserRole = 'client') => {
  const id = randomUUID();
  return { id, email: `${role}-${id.slice(0, 8)}@example.com`, role };
};

const EXECUTABLE = Buffer.concat([Buffer.from('MZ\x90\0\x03\0\0\0\x04\0\0\0\xff\xff', 'latin1'), Buffer.alloc(512)]);

interface CaptureInput {
  file?: { bytes: Buffer; name: string; type: string };
  clientSparkId?: string;
  note?: string;
  timeZone?: string;
}

function captureForm(input: CaptureInput): FormData {
  const form = new FormData();
  form.append('clientSparkId', input.clientSparkId ?? randomUUID());
  form.append('timeZone', input.timeZone ?? 'Europe/Berlin');
  if (input.note !== undefined) form.append('note', input.note);
  if (input.file) form.append('file', new Blob([new Uint8Array(input.file.bytes)], { type: input.file.type }), input.file.name);
  return form;
}

describe('spark capture, from a multipart upload to S3 and the progress counters', () => {
  let stack: InProcessStack;
  let db: Client;
  let storage: ObjectStorage;
  const client = newUser();

  const capture = (user: { id: string; email: string; role: UserRole }, input: CaptureInput) =>
    fetch(`${stack.baseUrl}/api/sparks`, { method: 'POST', headers: { authorization: `Bearer ${tokenFor(user)}` }, body: captureForm(input) });
  const get = (user: { id: string; email: string; role: UserRole }, path: string) =>
    fetch(`${stack.baseUrl}${path}`, { headers: { authorization: `Bearer ${tokenFor(user)}` } });
  const counters = async (userId: string) =>
    (await db.query('SELECT spark_count, streak_count, last_spark_date::text FROM progress.user_progress WHERE user_id = $1', [userId])).rows[0];
  const sparkCount = async (userId: string) => Number((await db.query('SELECT count(*) FROM progress.sparks WHERE user_id = $1', [userId])).rows[0].count);
  const errorCode = async (response: Response) => errorBodySchema.parse(await response.json()).code;

  beforeAll(async () => {
    // One client sends 12 captures at once below, past the everyday cap of uploads per person.
    stack = await startInProcessStack({ redisDb: 11, withNotifier: false, env: { JWT_SECRET, UPLOADS_PER_USER: '12' } });
    db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
    storage = new ObjectStorage(stack.s3.config);
  });
  afterAll(async () => {
    storage.close();
    await db.end();
    await stack.stop();
  });

  it('stores the photo in S3 under {userId}/{timestamp}.png and records the spark with its counters', async () => {
    const response = await capture(client, { file: { bytes: TINY_PNG, name: 'morning.png', type: 'image/png' }, note: '  First walk  ' });
    expect(response.status).toBe(201);
    const body = recordSparkResponseSchema.parse(await response.json());
    expect(body.created).toBe(true);
    expect(body.spark).toMatchObject({ userId: client.id, sparkType: 'photo', fileType: 'image/png', note: 'First walk' });
    expect(body.spark.fileKey).toMatch(new RegExp(`^${client.id}/\\d{13}-[0-9a-f]{8}\\.png$`));
    expect(body.progress).toMatchObject({ sparkCount: 1, streakCount: 1 });
    expect(body.milestone.description).toContain('first spark');
    const stored = await sharp(Buffer.from(await (await fetch(body.spark.fileUrl ?? '')).arrayBuffer())).metadata();
    expect({ format: stored.format, width: stored.width, height: stored.height }).toEqual({ format: 'png', width: 1, height: 1 });
    expect(await counters(client.id)).toMatchObject({ spark_count: 1, streak_count: 1 });
  });

  it('stores an empty note as null', async () => {
    const response = await capture(client, { file: { bytes: TINY_PNG, name: 'b.png', type: 'image/png' }, note: '   ' });
    expect(recordSparkResponseSchema.parse(await response.json()).spark.note).toBeNull();
  });

  it('refuses an executable named .png with 415 and stores nothing', async () => {
    const before = await sparkCount(client.id);
    const response = await capture(client, { file: { bytes: EXECUTABLE, name: 'cat.png', type: 'image/png' } });
    expect(response.status).toBe(415);
    expect(await errorCode(response)).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(await sparkCount(client.id)).toBe(before);
  });

  it('refuses a photo over 15 MB with 413, records nothing and leaves no object behind', async () => {
    const user = newUser();
    const oversized = Buffer.concat([TINY_PNG, Buffer.alloc(15 * 1024 * 1024)]);
    const response = await capture(user, { file: { bytes: oversized, name: 'huge.png', type: 'image/png' } });
    expect(response.status).toBe(413);
    expect(await errorCode(response)).toBe('PAYLOAD_TOO_LARGE');
    expect(await sparkCount(user.id)).toBe(0);
  });

  it('answers 400 "Please select a photo or file to capture" when no file is sent', async () => {
    const response = await capture(client, {});
    expect(response.status).toBe(400);
    expect(errorBodySchema.parse(await response.json()).message).toBe('Please select a photo or file to capture');
  });

  it('records a retried upload with the same client id once, counting it once', async () => {
    const user = newUser();
    const clientSparkId = randomUUID();
    const first = recordSparkResponseSchema.parse(
      await (await capture(user, { clientSparkId, file: { bytes: TINY_PNG, name: 'a.png', type: 'image/png' } })).json(),
    );
    const retry = await capture(user, { clientSparkId, file: { bytes: TINY_PNG, name: 'a.png', type: 'image/png' } });
    expect(retry.status).toBe(201);
    const second = recordSparkResponseSchema.parse(await retry.json());
    expect(second.created).toBe(false);
    expect(second.spark.id).toBe(first.spark.id);
    expect(await sparkCount(user.id)).toBe(1);
    expect(await counters(user.id)).toMatchObject({ spark_count: 1, streak_count: 1 });
  });

  it('keeps the counters right under 12 concurrent captures of one client', async () => {
    const user = newUser();
    const responses = await Promise.all(Array.from({ length: 12 }, () => capture(user, { file: { bytes: TINY_PNG, name: 'c.png', type: 'image/png' } })));
    expect(responses.map((response) => response.status)).toEqual(Array(12).fill(201));
    expect(await sparkCount(user.id)).toBe(12);
    expect(await counters(user.id)).toMatchObject({ spark_count: 12, streak_count: 1 });
  });

  it('never lets a client read another client’s spark', async () => {
    const owner = newUser();
    const other = newUser();
    const created = recordSparkResponseSchema.parse(await (await capture(owner, { file: { bytes: TINY_PNG, name: 'o.png', type: 'image/png' } })).json());
    const ownRead = await get(owner, `/api/sparks/${created.spark.id}`);
    expect(sparkSchema.parse(await ownRead.json()).id).toBe(created.spark.id);
    const foreignRead = await get(other, `/api/sparks/${created.spark.id}`);
    expect(foreignRead.status).toBe(404);
    expect(sparkPageSchema.parse(await (await get(other, '/api/sparks')).json()).items).toEqual([]);
    expect((await get(other, `/api/progress/clients/${owner.id}/sparks`)).status).toBe(403);
    expect((await fetch(`${stack.baseUrl}/api/sparks/${created.spark.id}`)).status).toBe(401);
  });

  it('shows the home with no progress row as null, and the coach’s latest pinned note once written', async () => {
    const user = newUser();
    const coach = newUser('coach');
    expect(homeResponseSchema.parse(await (await get(user, '/api/progress/me')).json())).toEqual({ progress: null, pinnedNote: null, restDays: null });
    const note = await fetch(`${stack.baseUrl}/api/progress/clients/${user.id}/notes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokenFor(coach)}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'Proud of your consistency this week!' }),
    });
    expect(note.status).toBe(201);
    expect(coachNoteSchema.parse(await note.json()).isPinned).toBe(true);
    const home = homeResponseSchema.parse(await (await get(user, '/api/progress/me')).json());
    expect(home.pinnedNote?.message).toBe('Proud of your consistency this week!');
    const coachView = sparkPageSchema.parse(await (await get(coach, `/api/progress/clients/${client.id}/sparks`)).json());
    expect(coachView.items.length).toBeGreaterThan(0);
  });
});
