import { randomUUID } from 'node:crypto';
import { JwtService } from '@nestjs/jwt';
import {
  ACCESS_TOKEN_AUDIENCE,
  ACCESS_TOKEN_ISSUER,
  coachNoteSchema,
  errorBodySchema,
  homeResponseSchema,
  localDate,
  recordSparkResponseSchema,
  sparkPageSchema,
  sparkSchema,
  sparkUploadGrantSchema,
  type UserRole,
} from '@spark/contracts';
import { SparkMedia } from '@spark/media';
import { ObjectStorage } from '@spark/storage';
import { Client } from 'pg';
import sharp from 'sharp';
import { type InProcessStack, startInProcessStack } from './in-process-stack';
import { captureSpark, eventually, insertProgress, type SparkCaptureInput, TINY_PNG } from '@spark/testing';

const JWT_SECRET = 'sparks-system-test-secret';
const jwt = new JwtService({ secret: JWT_SECRET, signOptions: { algorithm: 'HS256' } });

// The same claims auth-service signs; the gateway cannot tell the difference.
const tokenFor = (user: { id: string; email: string; role: UserRole }) =>
  jwt.sign({ sub: user.id, email: user.email, role: user.role }, { expiresIn: 900, issuer: ACCESS_TOKEN_ISSUER, audience: ACCESS_TOKEN_AUDIENCE });

const newUser = (role: UserRole = 'client') => {
  const id = randomUUID();
  return { id, email: `${role}-${id.slice(0, 8)}@example.com`, role };
};

const DAY_MS = 24 * 60 * 60 * 1000;
const EXECUTABLE = Buffer.concat([Buffer.from('MZ\x90\0\x03\0\0\0\x04\0\0\0\xff\xff', 'latin1'), Buffer.alloc(512)]);

describe('spark capture, from a direct upload to S3 to the progress counters', () => {
  let stack: InProcessStack;
  let db: Client;
  let storage: ObjectStorage;
  const client = newUser();

  const capture = (user: { id: string; email: string; role: UserRole }, input: SparkCaptureInput) =>
    captureSpark(stack.baseUrl, { authorization: `Bearer ${tokenFor(user)}` }, input);
  const post = (user: { id: string; email: string; role: UserRole }, path: string, body: unknown) =>
    fetch(`${stack.baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokenFor(user)}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const objectsUnder = async (prefix: string) => (await stack.s3.keysUnder(`${prefix}/`)).length;
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
    await storage.close();
    await db.end();
    await stack.stop();
  });

  it('stores the photo in S3 under {userId}/{timestamp}.png and records the spark with its counters', async () => {
    const response = await capture(client, { bytes: TINY_PNG, note: '  First walk  ' });
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
    const response = await capture(client, { bytes: TINY_PNG, note: '   ' });
    expect(recordSparkResponseSchema.parse(await response.json()).spark.note).toBeNull();
  });

  it('refuses an executable named .png with 415 and stores nothing', async () => {
    const user = newUser();
    const response = await capture(user, { bytes: EXECUTABLE });
    expect(response.status).toBe(415);
    expect(await errorCode(response)).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(await sparkCount(user.id)).toBe(0);
    expect(await objectsUnder(user.id)).toBe(0);
    expect(await objectsUnder(`incoming/${user.id}`)).toBe(0);
  });

  it('refuses a photo over 15 MB with 413, records nothing and leaves no object behind', async () => {
    const user = newUser();
    const oversized = Buffer.concat([TINY_PNG, Buffer.alloc(15 * 1024 * 1024)]);
    const response = await capture(user, { bytes: oversized, contentType: 'video/mp4' });
    expect(response.status).toBe(413);
    expect(await errorCode(response)).toBe('PAYLOAD_TOO_LARGE');
    expect(await sparkCount(user.id)).toBe(0);
    expect(await objectsUnder(user.id)).toBe(0);
    expect(await objectsUnder(`incoming/${user.id}`)).toBe(0);
  });

  it('answers 404 for an upload that was never made, and 400 with field errors for a capture without one', async () => {
    const missing = await post(client, '/api/sparks', { clientSparkId: randomUUID(), uploadId: randomUUID(), timeZone: 'UTC' });
    expect(missing.status).toBe(404);
    expect(errorBodySchema.parse(await missing.json()).message).toBe('This upload was not found. Please capture your spark again.');
    const invalid = await post(client, '/api/sparks', { clientSparkId: randomUUID() });
    expect(invalid.status).toBe(400);
    expect(errorBodySchema.parse(await invalid.json()).fieldErrors).toHaveProperty('uploadId');
  });

  it('refuses at once an upload larger than its kind allows, and signs the declared size and type into the URL', async () => {
    const photo = await post(client, '/api/sparks/uploads', { clientSparkId: randomUUID(), bytes: 16 * 1024 * 1024, contentType: 'image/jpeg' });
    expect(photo.status).toBe(413);
    expect(errorBodySchema.parse(await photo.json()).message).toBe('Photos can be at most 15 MB.');
    const video = await post(client, '/api/sparks/uploads', { clientSparkId: randomUUID(), bytes: 100 * 1024 * 1024 + 1, contentType: 'video/mp4' });
    expect(video.status).toBe(400);
    const grant = sparkUploadGrantSchema.parse(
      await (await post(client, '/api/sparks/uploads', { clientSparkId: randomUUID(), bytes: TINY_PNG.length, contentType: 'image/png' })).json(),
    );
    // S3 refuses a body of another length or type (s3rver does not check signed headers, so the claim re-checks the size).
    expect(new URL(grant.url).searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host');
    expect(Number(new URL(grant.url).searchParams.get('X-Amz-Expires'))).toBe(15 * 60);
  });

  it('keeps uploads to their owner: a client cannot record another client’s upload', async () => {
    const owner = newUser();
    const clientSparkId = randomUUID();
    const grant = sparkUploadGrantSchema.parse(
      await (await post(owner, '/api/sparks/uploads', { clientSparkId, bytes: TINY_PNG.length, contentType: 'image/png' })).json(),
    );
    expect(new URL(grant.url).pathname).toBe(`/sparks/incoming/${owner.id}/${clientSparkId}/${grant.uploadId}`);
    expect((await fetch(grant.url, { method: 'PUT', headers: grant.headers, body: new Uint8Array(TINY_PNG) })).ok).toBe(true);
    const thief = newUser();
    const stolen = await post(thief, '/api/sparks', { clientSparkId, uploadId: grant.uploadId, timeZone: 'UTC' });
    expect(stolen.status).toBe(404);
    expect(await sparkCount(thief.id)).toBe(0);
  });

  // Each recording re-encodes its upload: reusable, one grant would buy any number of sparks and of re-encodes.
  it('records an upload as the capture it was granted for, and as no other, even uploaded again', async () => {
    const user = newUser();
    const clientSparkId = randomUUID();
    const grant = sparkUploadGrantSchema.parse(
      await (await post(user, '/api/sparks/uploads', { clientSparkId, bytes: TINY_PNG.length, contentType: 'image/png' })).json(),
    );
    const upload = () => fetch(grant.url, { method: 'PUT', headers: grant.headers, body: new Uint8Array(TINY_PNG) });
    const recordAs = (id: string) => post(user, '/api/sparks', { clientSparkId: id, uploadId: grant.uploadId, timeZone: 'UTC' });
    expect((await upload()).ok).toBe(true);
    const [other, another] = await Promise.all([recordAs(randomUUID()), recordAs(randomUUID())]);
    expect([other.status, another.status]).toEqual([404, 404]);
    expect(await sparkCount(user.id)).toBe(0);

    expect((await recordAs(clientSparkId)).status).toBe(201);
    expect((await upload()).ok).toBe(true);
    expect((await recordAs(randomUUID())).status).toBe(404);
    expect(await sparkCount(user.id)).toBe(1);
  });

  // During a rolling deploy a replica of the version before may grant the upload and one of this version record it.
  it("records an upload granted by the version before, at that version's key", async () => {
    const user = newUser();
    const uploadId = randomUUID();
    await storage.put({ key: `incoming/${user.id}/${uploadId}`, body: TINY_PNG, contentType: 'image/png' });
    const recorded = await post(user, '/api/sparks', { clientSparkId: randomUUID(), uploadId, timeZone: 'UTC' });
    expect(recorded.status).toBe(201);
    expect(await sparkCount(user.id)).toBe(1);
    await eventually(async () => (await objectsUnder(`incoming/${user.id}`)) === 0, 5_000, 'the released upload to be deleted');
  });

  it('limits recordings per client, as it limits grants, with 429', async () => {
    const user = newUser();
    const recordNothing = () => post(user, '/api/sparks', { clientSparkId: randomUUID(), uploadId: randomUUID(), timeZone: 'UTC' });
    for (let recording = 1; recording <= 120; recording++) expect((await recordNothing()).status).toBe(404);
    const refused = await recordNothing();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await post(newUser(), '/api/sparks', { clientSparkId: randomUUID(), uploadId: randomUUID(), timeZone: 'UTC' })).status).toBe(404);
  });

  it('sweeps away an upload that was granted and stored but never recorded, and nothing else', async () => {
    const user = newUser();
    expect((await capture(user, { bytes: TINY_PNG })).status).toBe(201);
    const grant = sparkUploadGrantSchema.parse(
      await (await post(user, '/api/sparks/uploads', { clientSparkId: randomUUID(), bytes: TINY_PNG.length, contentType: 'image/png' })).json(),
    );
    expect((await fetch(grant.url, { method: 'PUT', headers: grant.headers, body: new Uint8Array(TINY_PNG) })).ok).toBe(true);
    const media = new SparkMedia(storage);
    expect(await media.sweepUnclaimed(new Date(Date.now() - 60_000))).toBe(0);
    expect(await media.sweepUnclaimed(new Date(Date.now() + 60_000))).toBeGreaterThanOrEqual(1);
    expect(await objectsUnder(`incoming/${user.id}`)).toBe(0);
    expect(await objectsUnder(user.id)).toBe(1);
  });

  it('records a retried upload with the same client id once, counting it once', async () => {
    const user = newUser();
    const clientSparkId = randomUUID();
    const first = recordSparkResponseSchema.parse(await (await capture(user, { clientSparkId, bytes: TINY_PNG })).json());
    const retry = await capture(user, { clientSparkId, bytes: TINY_PNG });
    expect(retry.status).toBe(201);
    const second = recordSparkResponseSchema.parse(await retry.json());
    expect(second.created).toBe(false);
    expect(second.spark.id).toBe(first.spark.id);
    expect(await sparkCount(user.id)).toBe(1);
    expect(await counters(user.id)).toMatchObject({ spark_count: 1, streak_count: 1 });
    // The retry's copy of the file is gone: one stored file, and no upload left once the released ones are deleted.
    expect(await objectsUnder(user.id)).toBe(1);
    await eventually(async () => (await objectsUnder(`incoming/${user.id}`)) === 0, 5_000, 'the released uploads to be deleted');
  });

  it('answers a recording delivered again, after its upload was claimed, with the spark it recorded', async () => {
    const user = newUser();
    const clientSparkId = randomUUID();
    const grant = sparkUploadGrantSchema.parse(
      await (await post(user, '/api/sparks/uploads', { clientSparkId, bytes: TINY_PNG.length, contentType: 'image/png' })).json(),
    );
    expect((await fetch(grant.url, { method: 'PUT', headers: grant.headers, body: new Uint8Array(TINY_PNG) })).ok).toBe(true);
    const recording = { clientSparkId, uploadId: grant.uploadId, timeZone: 'UTC' };
    const first = recordSparkResponseSchema.parse(await (await post(user, '/api/sparks', recording)).json());
    const again = await post(user, '/api/sparks', recording);
    expect(again.status).toBe(201);
    expect(recordSparkResponseSchema.parse(await again.json())).toMatchObject({ created: false, spark: { id: first.spark.id }, progress: { sparkCount: 1 } });
  });

  // A capture waits on the device while it is offline, or while a service is down, and may be recorded after midnight.
  it('dates a capture back by as long as the device held it, within a week: recorded after midnight, it still extends the streak', async () => {
    const user = newUser();
    const zone = 'Asia/Tokyo';
    const now = Date.now();
    const dayOf = (instant: number) => localDate(new Date(instant), zone);
    const iso = (instant: number) => new Date(instant).toISOString();
    const recordedAs = async (device: { takenAt: number; sentAt: number }) => {
      const response = await capture(user, { bytes: TINY_PNG, timeZone: zone, takenAt: iso(device.takenAt), sentAt: iso(device.sentAt) });
      expect(response.status).toBe(201);
      return Date.parse(recordSparkResponseSchema.parse(await response.json()).spark.createdAt);
    };
    await insertProgress(db, { userId: user.id, email: user.email, timeZone: zone });
    await db.query('UPDATE progress.user_progress SET streak_count = 4, last_spark_date = $2 WHERE user_id = $1', [user.id, dayOf(now - 2 * DAY_MS)]);

    // Held a day on a device whose clock is right.
    expect(Math.abs((await recordedAs({ takenAt: now - DAY_MS, sentAt: now })) - (now - DAY_MS))).toBeLessThan(10_000);
    expect(await counters(user.id)).toMatchObject({ spark_count: 1, streak_count: 5, last_spark_date: dayOf(now - DAY_MS) });

    // Sent at once by a device whose clock is a day behind: today's, not yesterday's.
    expect(Math.abs((await recordedAs({ takenAt: now - DAY_MS, sentAt: now - DAY_MS })) - Date.now())).toBeLessThan(10_000);
    // Held for a negative time, or past the week a device may hold a capture: dated when it is recorded.
    for (const device of [
      { takenAt: now + 2 * DAY_MS, sentAt: now },
      { takenAt: now - 8 * DAY_MS, sentAt: now },
    ]) {
      expect(Math.abs((await recordedAs(device)) - Date.now())).toBeLessThan(10_000);
    }
    expect(await counters(user.id)).toMatchObject({ spark_count: 4, streak_count: 6, last_spark_date: dayOf(Date.now()) });
  });

  it('mends the streak when a day held by a second device arrives after a later day from the first', async () => {
    const user = newUser();
    const zone = 'Europe/Berlin';
    const now = Date.now();
    const daysAgo = (days: number) => localDate(new Date(now - days * DAY_MS), zone);
    const capturedDaysAgo = async (days: number) => {
      const taken = { takenAt: new Date(now - days * DAY_MS).toISOString(), sentAt: new Date(now).toISOString() };
      expect((await capture(user, { bytes: TINY_PNG, timeZone: zone, ...taken })).status).toBe(201);
    };
    await insertProgress(db, { userId: user.id, email: user.email, timeZone: zone });
    await capturedDaysAgo(3);
    await capturedDaysAgo(2);
    // The laptop sends today's spark while the phone still holds yesterday's: the streak starts again.
    await capturedDaysAgo(0);
    expect(await counters(user.id)).toMatchObject({ streak_count: 1, last_spark_date: daysAgo(0) });
    // As sparks recorded before their local date was kept: dated by the client's zone.
    await db.query('UPDATE progress.sparks SET local_date = NULL WHERE user_id = $1', [user.id]);

    await capturedDaysAgo(1);
    expect(await counters(user.id)).toMatchObject({ spark_count: 4, streak_count: 4, last_spark_date: daysAgo(0) });
    // A day from before the streak, and a day already counted, leave it as it is.
    await capturedDaysAgo(5);
    await capturedDaysAgo(2);
    expect(await counters(user.id)).toMatchObject({ spark_count: 6, streak_count: 4, last_spark_date: daysAgo(0) });
  });

  it('counts a late day for a client whose stored zone the database does not know, reading that zone as UTC', async () => {
    const user = newUser();
    const now = Date.now();
    const capturedDaysAgo = async (days: number) => {
      const taken = { takenAt: new Date(now - days * DAY_MS).toISOString(), sentAt: new Date(now).toISOString() };
      return (await capture(user, { bytes: TINY_PNG, timeZone: 'UTC', ...taken })).status;
    };
    await insertProgress(db, { userId: user.id, email: user.email, timeZone: 'UTC' });
    expect([await capturedDaysAgo(2), await capturedDaysAgo(0)]).toEqual([201, 201]);
    // As a row stored before zones were checked, with sparks from before their local date was kept.
    await db.query(`UPDATE progress.user_progress SET time_zone = 'Mars/Olympus_Mons' WHERE user_id = $1`, [user.id]);
    await db.query('UPDATE progress.sparks SET local_date = NULL WHERE user_id = $1', [user.id]);

    expect(await capturedDaysAgo(1)).toBe(201);
    expect(await counters(user.id)).toMatchObject({ spark_count: 3, streak_count: 3 });
  });

  it('keeps the counters right under 12 concurrent captures of one client, those refused while three run sent again', async () => {
    const user = newUser();
    const responses = await Promise.all(Array.from({ length: 12 }, () => capture(user, { bytes: TINY_PNG, resendWhileBusy: true })));
    expect(responses.map((response) => response.status)).toEqual(Array(12).fill(201));
    expect(await sparkCount(user.id)).toBe(12);
    expect(await counters(user.id)).toMatchObject({ spark_count: 12, streak_count: 1 });
  });

  it('never lets a client read another client’s spark', async () => {
    const owner = newUser();
    const other = newUser();
    const created = recordSparkResponseSchema.parse(await (await capture(owner, { bytes: TINY_PNG })).json());
    const ownRead = await get(owner, `/api/sparks/${created.spark.id}`);
    expect(sparkSchema.parse(await ownRead.json()).id).toBe(created.spark.id);
    const foreignRead = await get(other, `/api/sparks/${created.spark.id}`);
    expect(foreignRead.status).toBe(404);
    expect(sparkPageSchema.parse(await (await get(other, '/api/sparks')).json()).items).toEqual([]);
    expect((await get(other, `/api/progress/clients/${owner.id}/sparks`)).status).toBe(403);
    expect((await fetch(`${stack.baseUrl}/api/sparks/${created.spark.id}`)).status).toBe(401);
  });

  it('shows the home with no progress row as null, takes a coach’s note only once the client has one, and shows the latest pinned', async () => {
    const user = newUser();
    const coach = newUser('coach');
    expect(homeResponseSchema.parse(await (await get(user, '/api/progress/me')).json())).toEqual({ progress: null, pinnedNote: null, restDays: null });
    const writeNote = () =>
      fetch(`${stack.baseUrl}/api/progress/clients/${user.id}/notes`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokenFor(coach)}`, 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'Proud of your consistency this week!' }),
      });
    expect((await writeNote()).status).toBe(404);
    await insertProgress(db, { userId: user.id, email: user.email });
    const note = await writeNote();
    expect(note.status).toBe(201);
    expect(coachNoteSchema.parse(await note.json()).isPinned).toBe(true);
    const home = homeResponseSchema.parse(await (await get(user, '/api/progress/me')).json());
    expect(home.pinnedNote?.message).toBe('Proud of your consistency this week!');
    const coachView = sparkPageSchema.parse(await (await get(coach, `/api/progress/clients/${client.id}/sparks`)).json());
    expect(coachView.items.length).toBeGreaterThan(0);
  });
});
