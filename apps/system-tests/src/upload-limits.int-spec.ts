import { randomUUID } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { JwtService } from '@nestjs/jwt';
import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER, errorBodySchema, revocationMarkersRetainedKey } from '@spark/contracts';
import { eventually, TINY_PNG } from '@spark/testing';
import { type InProcessStack, startInProcessStack } from './in-process-stack';

const JWT_SECRET = 'upload-limits-system-test-secret';
const jwt = new JwtService({ secret: JWT_SECRET, signOptions: { algorithm: 'HS256' } });
// Spark files go straight to storage; what still uploads through the gateway is an admin's (log images, decks).
const tokenFor = (userId: string) =>
  jwt.sign(
    { sub: userId, email: `${userId.slice(0, 8)}@example.com`, role: 'admin' },
    { expiresIn: 900, issuer: ACCESS_TOKEN_ISSUER, audience: ACCESS_TOKEN_AUDIENCE },
  );

// Short timeouts so the test sees them act; production defaults are in libs/config.
// Four uploads of 8 MiB fill the gateway's upload memory exactly (each counts twice its size).
const LIMITS = {
  UPLOADS_PER_USER: '2',
  UPLOAD_MEMORY_MB: '64',
  HTTP_IDLE_TIMEOUT_MS: '1000',
  HTTP_HEADERS_TIMEOUT_MS: '1500',
  HTTP_REQUEST_TIMEOUT_MS: '4000',
};
const LARGE_UPLOAD_BYTES = 8 * 1024 * 1024;

const BOUNDARY = 'spark-upload-limits';

/** A log image upload of `contentLength` bytes up to the start of its file, as a slow link sends it. */
function uploadRequestHead(port: number, userId: string, contentLength: number): string {
  const fields = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="chart.png"\r\nContent-Type: image/png\r\n\r\n`;
  return `POST /api/log/images HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${tokenFor(userId)}\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${contentLength}\r\n\r\n${fields}`;
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
  let port: number;

  beforeAll(async () => {
    stack = await startInProcessStack({ services: [], withNotifier: false, env: { JWT_SECRET, ...LIMITS } });
    // No auth-service runs here: the test issues the tokens, and says, as the auth-service does, that Redis holds
    // every revocation marker.
    await stack.redis.set(revocationMarkersRetainedKey(stack.env.BUS_PREFIX ?? ''), 'set by the test');
    port = Number(new URL(stack.baseUrl).port);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const upload = (userId: string) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(TINY_PNG)], { type: 'image/png' }), 'chart.png');
    return fetch(`${stack.baseUrl}/api/log/images`, { method: 'POST', headers: { authorization: `Bearer ${tokenFor(userId)}` }, body: form });
  };
  /** An upload that has started and keeps sending a byte now and then, never finishing by itself. */
  const trickling = async (userId: string) => {
    const client = await openSocket(port);
    client.socket.write(uploadRequestHead(port, userId, LARGE_UPLOAD_BYTES));
    client.socket.write(TINY_PNG.subarray(0, 8));
    const timer = setInterval(() => client.socket.write(Buffer.alloc(1)), 200);
    void client.closed.then(() => clearInterval(timer));
    return client;
  };
  const slotsKey = (userId: string) => `${stack.env.BUS_PREFIX}:gateway:upload-slots:${userId}`;
  const objectsOf = async (userId: string) => (await stack.s3.keysUnder(`${userId}/`, 'log')).length;

  it('takes two uploads at a time per person and four large ones per gateway; the next one is answered 429 with Retry-After', async () => {
    const [ada, bo, cy] = [randomUUID(), randomUUID(), randomUUID()];
    const held = [await trickling(ada), await trickling(ada)];
    const third = await upload(ada);
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(errorBodySchema.parse(await third.json())).toMatchObject({
      code: 'RATE_LIMITED',
      message: 'You already have 2 uploads in progress. Please wait for one to finish, then try again.',
    });

    held.push(await trickling(bo), await trickling(bo));
    // Once Bo's uploads hold their slots the gateway is full, for anyone.
    await eventually(async () => (await stack.redis.zcard(slotsKey(bo))) === 2, 5000, "Bo's upload slots");
    const full = await upload(cy);
    expect(full.status).toBe(429);
    expect(errorBodySchema.parse(await full.json())).toMatchObject({
      code: 'RATE_LIMITED',
      message: 'Too many uploads in progress right now. Please try again in 5 seconds.',
    });

    // Slots come back when the uploads end, here by the phones giving up.
    for (const client of held) client.socket.destroy();
    await eventually(async () => (await upload(ada)).status === 201, 5000, "Ada's slots to come back");
    expect((await upload(cy)).status).toBe(201);
  });

  it('closes an upload whose body stalls for the idle timeout, and leaves nothing in S3', async () => {
    const userId = randomUUID();
    const client = await openSocket(port);
    client.socket.write(uploadRequestHead(port, userId, LARGE_UPLOAD_BYTES));
    client.socket.write(Buffer.concat([TINY_PNG.subarray(0, 8), Buffer.alloc(6 * 1024 * 1024)]));
    const closedAfterMs = await client.closed;
    expect(closedAfterMs).toBeLessThan(6000);
    expect(await objectsOf(userId)).toBe(0);
    // Its slot is free again.
    expect((await upload(userId)).status).toBe(201);
    expect(await objectsOf(userId)).toBe(1);
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
    expect(await objectsOf(userId)).toBe(0);
  });
});
