import { createHash } from 'node:crypto';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { type ClientRequest, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { eventually, startTestS3, type TestS3 } from '@spark/testing';
import { readErasureNotes, writeErasureNote } from './erasure-notes';
import { ObjectStorage, PART_SIZE } from './object-storage';
import { s3OperationOf } from './s3-operations';

// `length` bytes of `fill` in uneven chunks, as a socket would deliver them.
function chunked(length: number, fill: number, chunkSize = 64 * 1024 + 7): Readable {
  const chunk = Buffer.alloc(chunkSize, fill);
  return Readable.from(
    (function* () {
      for (let sent = 0; sent < length; sent += chunkSize) yield chunk.subarray(0, Math.min(chunkSize, length - sent));
    })(),
  );
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The S3 operations `action` sent. */
async function s3Operations(action: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const onRequest = (message: unknown) => {
    const { request } = message as { request: ClientRequest };
    seen.push(s3OperationOf(request.method, request.path));
  };
  subscribe('http.client.request.start', onRequest);
  try {
    await action();
  } finally {
    unsubscribe('http.client.request.start', onRequest);
  }
  return seen;
}

describe('ObjectStorage against a real S3-compatible server', () => {
  let s3: TestS3;
  let storage: ObjectStorage;

  beforeAll(async () => {
    s3 = await startTestS3();
    storage = new ObjectStorage(s3.config);
  });
  afterAll(async () => {
    await storage.close();
    await s3.close();
  });

  it("keeps an erasure note's first time when the erasure runs again, a retry or a replay after a restore", async () => {
    const subject = { userId: '6d2f1c0e-8a4b-4c3d-9e7f-1a2b3c4d5e6f', email: 'Noor@Example.com ' };
    await writeErasureNote(storage, subject);
    const [first] = await readErasureNotes(storage);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await writeErasureNote(storage, subject);
    expect(await readErasureNotes(storage)).toEqual([first]);
  });

  it('streams an object in, tells it exists, and hands out a signed URL that reads it back', async () => {
    await storage.put({ key: 'user-1/1.txt', body: Readable.from([Buffer.from('hello '), Buffer.from('spark')]), contentType: 'text/plain' });
    expect(await storage.exists('user-1/1.txt')).toBe(true);
    expect(await storage.exists('user-1/missing.txt')).toBe(false);
    const response = await fetch(await storage.signedGetUrl('user-1/1.txt', { expiresInSeconds: 60 }));
    expect(await response.text()).toBe('hello spark');
  });

  const readBack = async (key: string) => Buffer.from(await (await fetch(await storage.signedGetUrl(key, { expiresInSeconds: 60 }))).arrayBuffer());

  it('sends a stream of at most one part as a single PUT', async () => {
    const sent = await s3Operations(() => storage.put({ key: 'user-1/one-part.bin', body: chunked(PART_SIZE, 1), contentType: 'application/octet-stream' }));
    expect(sent).toEqual(['PutObject']);
    expect(sha256(await readBack('user-1/one-part.bin'))).toBe(sha256(Buffer.alloc(PART_SIZE, 1)));
  });

  it('streams a longer body in 5 MiB parts and reads back every byte, and the next upload carries none of them', async () => {
    const first = Buffer.concat([Buffer.alloc(2 * PART_SIZE, 'a'), Buffer.alloc(123, 'z')]);
    const chunks = [first.subarray(0, 2 * PART_SIZE - 5), first.subarray(2 * PART_SIZE - 5)];
    const sent = await s3Operations(() => storage.put({ key: 'user-1/a.bin', body: Readable.from(chunks), contentType: 'application/octet-stream' }));
    expect(sent).toEqual(['CreateMultipartUpload', 'UploadPart', 'UploadPart', 'UploadPart', 'CompleteMultipartUpload']);
    await storage.put({ key: 'user-1/b.bin', body: chunked(PART_SIZE + 10, 0x62), contentType: 'application/octet-stream' });
    expect(sha256(await readBack('user-1/a.bin'))).toBe(sha256(first));
    expect(sha256(await readBack('user-1/b.bin'))).toBe(sha256(Buffer.alloc(PART_SIZE + 10, 0x62)));
  });

  it('signs keys with spaces and reserved characters, and offers a download name', async () => {
    const key = "user-1/it's a (sample) +1 ünïcode!.txt";
    expect(await s3Operations(() => storage.put({ key, body: 'odd name', contentType: 'text/plain' }))).toEqual(['PutObject']);
    expect((await readBack(key)).toString()).toBe('odd name');
    const response = await fetch(await storage.signedGetUrl(key, { downloadName: 'odd "name".txt' }));
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="odd name.txt"');
  });

  it('fails with S3’s own error code, without retrying it, when the bucket does not exist', async () => {
    const sent = await s3Operations(() =>
      expect(storage.put({ bucket: 'missing', key: 'a.txt', body: 'x', contentType: 'text/plain' })).rejects.toMatchObject({
        name: 'NoSuchBucket',
        status: 404,
      }),
    );
    expect(sent).toEqual(['PutObject']);
  });

  it('fails with the stream’s own error and leaves no object when the body breaks after the first part', async () => {
    const body = chunked(3 * PART_SIZE, 1);
    let seen = 0;
    body.on('data', (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > PART_SIZE + 1024 * 1024) body.destroy(new Error('connection cut'));
    });
    body.pause();
    const sent = await s3Operations(() =>
      expect(storage.put({ key: 'user-1/broken.bin', body, contentType: 'application/octet-stream' })).rejects.toThrow('connection cut'),
    );
    expect(sent[0]).toBe('CreateMultipartUpload');
    expect(sent.at(-1)).toBe('AbortMultipartUpload');
    expect(sent).not.toContain('CompleteMultipartUpload');
    expect(await storage.exists('user-1/broken.bin')).toBe(false);
  });

  it('grants a PUT URL a client uploads to without credentials', async () => {
    const url = await storage.signedPutUrl('incoming/user-1/upload', { bytes: 5, contentType: 'text/plain', expiresInSeconds: 60 });
    const response = await fetch(url, { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: 'hello' });
    expect(response.status).toBe(200);
    expect((await readBack('incoming/user-1/upload')).toString()).toBe('hello');
  });

  it('deletes only the objects under a prefix written before a cutoff', async () => {
    await storage.put({ key: 'incoming/user-2/old', body: 'old', contentType: 'text/plain' });
    const cutoff = new Date(Date.now() + 1000);
    expect(await storage.deleteOlderThan('incoming/user-2/', new Date(Date.now() - 60_000))).toBe(0);
    expect(await storage.deleteOlderThan('incoming/user-2/', cutoff)).toBe(1);
    expect(await storage.exists('incoming/user-2/old')).toBe(false);
    expect(await storage.exists('user-1/a.bin')).toBe(true);
  });
  it('deletes the objects queued for deletion within a moment in one request per bucket', async () => {
    const keys = ['user-5/a', 'user-5/b', 'user-6/c'];
    await Promise.all([...keys, 'user-5/kept'].map((key) => storage.put({ key, body: key, contentType: 'text/plain' })));
    await storage.put({ bucket: 'log', key: 'post/d', body: 'd', contentType: 'text/plain' });
    const sent = await s3Operations(async () => {
      for (const key of keys) storage.deleteLater(key);
      storage.deleteLater('post/d', 'log');
      await eventually(async () => !(await storage.exists('user-6/c')) && !(await storage.exists('post/d', 'log')), 5_000, 'the queued deletions');
    });
    expect(sent.filter((operation) => operation !== 'HeadObject')).toEqual(['DeleteObjects', 'DeleteObjects']);
    for (const key of keys) expect(await storage.exists(key)).toBe(false);
    expect(await storage.exists('user-5/kept')).toBe(true);
  });

  it('sends the deletions still queued when it is closed, and reports those S3 refuses', async () => {
    await storage.put({ key: 'user-7/a', body: 'a', contentType: 'text/plain' });
    const failures: { error: unknown; batch: { bucket: string; keys: number } }[] = [];
    const closing = new ObjectStorage(s3.config, { onLaterDeleteFailed: (error, batch) => failures.push({ error, batch }) });
    closing.deleteLater('user-7/a');
    closing.deleteLater('user-7/b', 'missing');
    await closing.close();
    expect(await storage.exists('user-7/a')).toBe(false);
    expect(failures).toEqual([{ error: expect.objectContaining({ name: 'NoSuchBucket' }), batch: { bucket: 'missing', keys: 1 } }]);
  });

  it('puts a body in memory with its type and caching, opens it with its size, and deletes it', async () => {
    const sent = await s3Operations(async () => {
      await storage.put({ key: 'user-3/note.txt', body: Buffer.from('a small note'), contentType: 'text/plain', cacheControlSeconds: 60 });
      const opened = await storage.open('user-3/note.txt');
      expect(opened?.bytes).toBe(12);
      expect(Buffer.concat(await opened!.body.toArray()).toString()).toBe('a small note');
      expect(await storage.getText('user-3/note.txt')).toBe('a small note');
      await storage.delete('user-3/note.txt');
    });
    expect(sent).toEqual(['PutObject', 'GetObject', 'GetObject', 'DeleteObject']);
    const response = await fetch(await storage.signedGetUrl('user-3/note.txt'));
    expect(response.status).toBe(404);
  });

  it('keeps the type and caching a body in memory was put with', async () => {
    await storage.put({ key: 'user-3/page.html', body: '<p>hi</p>', contentType: 'text/html', cacheControlSeconds: 60 });
    const response = await fetch(await storage.signedGetUrl('user-3/page.html'));
    expect(response.headers.get('content-type')).toBe('text/html');
    expect(response.headers.get('cache-control')).toBe('max-age=60');
  });

  it('opens nothing for a missing object, but fails for a missing bucket', async () => {
    expect(await storage.open('user-3/never-written')).toBeUndefined();
    await expect(storage.getStream('user-3/never-written')).rejects.toMatchObject({ name: 'NoSuchKey', status: 404 });
    await expect(storage.open('a.txt', 'missing')).rejects.toMatchObject({ name: 'NoSuchBucket' });
  });

  it('fails as unavailable (a 503 for the caller, to try again later) with a message that names the storage, after its tries', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const unreachable = new ObjectStorage({ ...s3.config, S3_ENDPOINT: `http://127.0.0.1:${port}` });
    try {
      await expect(unreachable.open('incoming/user-4/upload')).rejects.toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        message: 'File storage is not answering right now. Please try again in a moment.',
      });
      await expect(unreachable.put({ key: 'user-4/a.txt', body: 'x', contentType: 'text/plain' })).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    } finally {
      await unreachable.close();
    }
  });

  it('tries a request again when the storage answers 503, drops the connection or says nothing, and gives up after three tries', async () => {
    const faulty = await startFaultyProxy(new URL(s3.config.S3_ENDPOINT));
    const throughProxy = new ObjectStorage({ ...s3.config, S3_ENDPOINT: faulty.endpoint }, { answerTimeoutMs: 300 });
    try {
      faulty.failNext(['503', 'drop']);
      await throughProxy.put({ key: 'user-3/retried.txt', body: 'made it', contentType: 'text/plain' });
      expect(faulty.received).toBe(3);
      expect(await storage.getText('user-3/retried.txt')).toBe('made it');

      faulty.failNext(['503', '503', '503']);
      await expect(throughProxy.exists('user-3/retried.txt')).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      expect(faulty.received).toBe(6);

      faulty.failNext(['silence']);
      expect(await throughProxy.getText('user-3/retried.txt')).toBe('made it');
      expect(faulty.received).toBe(8);
    } finally {
      await throughProxy.close();
      await faulty.close();
    }
  });
});

/**
 * An HTTP server in front of s3rver that fails the next requests as told (a 503, the connection dropped before any
 * answer, or no answer at all) and forwards every other one unchanged, Host header included, so the signatures still
 * hold.
 */
async function startFaultyProxy(target: URL) {
  let failures: ('503' | 'drop' | 'silence')[] = [];
  let received = 0;
  const server = createServer((incoming, answer) => {
    received++;
    const failure = failures.shift();
    if (failure === 'drop') return incoming.socket.destroy();
    if (failure === 'silence') return;
    if (failure === '503') return void answer.writeHead(503, { 'content-type': 'application/xml' }).end('<Error><Code>SlowDown</Code></Error>');
    const forwarded = request(
      { host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: incoming.headers },
      (response) => {
        answer.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(answer);
      },
    );
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    get received() {
      return received;
    },
    failNext(next: ('503' | 'drop' | 'silence')[]) {
      failures = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
