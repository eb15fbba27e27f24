import { randomUUID } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { JwtService } from '@nestjs/jwt';
import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER, errorBodySchema } from '@spark/contracts';
import { eventually, TINY_PNG } from '@spark/testing';
import { Client } from 'pg';
import { progressService } from '../../progress-service/src/service';
import { type InProcessStack, startInProcessStack } from './in-process-stack';

const JWT_SECRET = 'upload-limits-system-test-secret';
const jwt = new JwtService({ secret: JWT_SECRET, signOptions: { algorithm: 'HS256' } });
const tokenFor = (userId: string) =>
  jwt.sign(
    { sub: userId, email: `${userId.slice(0, 8)}@example.com`, role: 'client' },
    { expiresIn: 900, issuer: ACCESS_TOKEN_ISSUER, audience: ACCESS_TOKEN_AUDIENCE },
  );

// Short timeouts so the test sees them act; production defaults are in libs/config.
// Three large uploads fill the gateway's upload memory (16 MiB each).
const LIMITS = {
  UPLOADS_PER_USER: '2',
  UPLOAD_MEMORY_MB: '48',
  HTTP_IDLE_TIMEOUT_MS: '1000',
  HTTP_HEADERS_TIMEOUT_MS: '1500',
  HTTP_REQUEST_TIMEOUT_MS: '4000',
};

const BOUNDARY = 'spark-upload-limits';
// An MP4's first box, so the gateway takes the rest for a video (up to 100 MB).
const MP4_HEAD = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42', 'latin1'), Buffer.alloc(12)]);

/** The multipart request of a capture up to the first bytes of its file, as a phone on a slow link sends it. */
function captureRequestHead(port: number, userId: string, fileBytes: number): string {
  const fields = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="clientSparkId"\r\n\r\n${randomUUID()}\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="walk.mp4"\r\nContent-Type: video/mp4\r\n\r\n`;
  const length = Buffer.byteLength(fields) + fileBytes + Buffer.byteLength(`\r\n--${BOUNDARY}--\r\n`);
  return `POST /api/sparks HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${tokenFor(userId)}\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${length}\r\n\r\n${fields}`;
}

interface SlowClient {
  socket: Socket;
  closed: Promise<number>;
  received(): string;
}

/** A raw socket: nothing in between buffers or paces what it sends. */
async function openSocket(port: number): Promise<SlowClient> {
  const socket = connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  const openedAt = Date.now();
  let received = '';
  socket.on('data', (chunk: Buffer) => void (received += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - openedAt)));
  return { socket, closed, received: () => received };
}

describe('slow uploads cannot exhaust the gateway', () => {
  let stack: InProcessStack;
  let db: Client;
  let s3: S3Client;
  let port: number;

  beforeAll(async () => {
    stack = await startInProcessStack({ services: [progressService], withNotifier: false, env: { JWT_SECRET, ...LIMITS } });
    port = Number(new URL(stack.baseUrl).port);
    db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
    const { S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY } = stack.s3.config;
    s3 = new S3Client({
      endpoint: S3_ENDPOINT,
      region: S3_REGION,
      forcePathStyle: true,
      credentials: { accessKeyId: S3_ACCESS_KEY_ID, secretAccessKey: S3_SECRET_ACCESS_KEY },
    });
  });
  afterAll(async () => {
    s3?.destroy();
    await db?.end();
    await stack?.stop();
  });

  const capture = (userId: string) => {
    const form = new FormData();
    form.append('clientSparkId', randomUUID());
    form.append('file', new Blob([new Uint8Array(TINY_PNG)], { type: 'image/png' }), 'a.png');
    return fetch(`${stack.baseUrl}/api/sparks`, { method: 'POST', headers: { authorization: `Bearer ${tokenFor(userId)}` }, body: form });
  };
  /** An upload that has started and keeps sending a byte now and then, never finishing by itself. */
  const trickling = async (userId: string) => {
    const client = await openSocket(port);
    client.socket.write(captureRequestHead(port, userId, 50 * 1024 * 1024));
    client.socket.write(MP4_HEAD);
    const timer = setInterval(() => client.socket.write(Buffer.alloc(1)), 200);
    void client.closed.then(() => clearInterval(timer));
    return client;
  };
  const slotsKey = (userId: string) => `${stack.env.BUS_PREFIX}:gateway:upload-slots:${userId}`;
  const objectsOf = async (userId: string) => (await s3.send(new ListObjectsV2Command({ Bucket: 'sparks', Prefix: `${userId}/` }))).KeyCount ?? 0;
  const sparksOf = async (userId: string) => Number((await db.query('SELECT count(*) FROM progress.sparks WHERE user_id = $1', [userId])).rows[0].count);

  it('takes two uploads at a time per person and three large ones per gateway; the next one is answered 429 with Retry-After', async () => {
    const [ada, bo, cy] = [randomUUID(), randomUUID(), randomUUID()];
    const held = [await trickling(ada), await trickling(ada)];
    const third = await capture(ada);
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(errorBodySchema.parse(await third.json())).toMatchObject({
      code: 'RATE_LIMITED',
      message: 'You already have 2 uploads in progress. Please wait for one to finish, then try again.',
    });

    held.push(await trickling(bo));
    // Once Bo's upload holds its slot the gateway is full, for anyone.
    await eventually(async () => (await stack.redis.zcard(slotsKey(bo))) === 1, 5000, "Bo's upload slot");
    const full = await capture(cy);
    expect(full.status).toBe(429);
    expect(errorBodySchema.parse(await full.json())).toMatchObject({
      code: 'RATE_LIMITED',
      message: 'Too many uploads in progress right now. Please try again in 5 seconds.',
    });

    // Slots come back when the uploads end, here by the phones giving up.
    for (const client of held) client.socket.destroy();
    await eventually(async () => (await capture(ada)).status === 201, 5000, "Ada's slots to come back");
    expect((await capture(cy)).status).toBe(201);
  });

  it('closes an upload whose body stalls for the idle timeout, and leaves nothing in S3 or the database', async () => {
    const userId = randomUUID();
    const client = await openSocket(port);
    client.socket.write(captureRequestHead(port, userId, 12 * 1024 * 1024));
    client.socket.write(MP4_HEAD);
    // More than one S3 part: the gateway has started a multipart upload when the phone goes quiet.
    client.socket.write(Buffer.alloc(6 * 1024 * 1024));
    const closedAfterMs = await client.closed;
    expect(closedAfterMs).toBeLessThan(6000);
    await eventually(async () => (await objectsOf(userId)) === 0 && (await sparksOf(userId)) === 0, 3000, 'no object and no spark');
    // Its slot is free again.
    expect((await capture(userId)).status).toBe(201);
    expect(await sparksOf(userId)).toBe(1);
  });

  it('closes a connection that trickles its headers (slowloris) after the headers timeout', async () => {
    const client = await openSocket(port);
    client.socket.write(`GET /health/live HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
    const timer = setInterval(() => client.socket.write(`X-Slow-${Date.now()}: 1\r\n`), 200);
    const closedAfterMs = await client.closed;
    clearInterval(timer);
    expect(closedAfterMs).toBeLessThan(4000);
    expect(client.received()).toMatch(/^HTTP\/1\.1 408/);
  });

  it('closes an upload that trickles on past the request timeout, leaving nothing behind', async () => {
    const userId = randomUUID();
    const client = await trickling(userId);
    const closedAfterMs = await client.closed;
    expect(closedAfterMs).toBeGreaterThanOrEqual(3500);
    expect(closedAfterMs).toBeLessThan(8000);
    await eventually(async () => (await objectsOf(userId)) === 0 && (await sparksOf(userId)) === 0, 3000, 'no object and no spark');
  });
});
