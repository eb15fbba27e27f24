import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { startTestS3, type TestS3 } from '@spark/testing';
import { ObjectStorage, PART_SIZE } from './object-storage';

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

describe('ObjectStorage against a real S3-compatible server', () => {
  let s3: TestS3;
  let storage: ObjectStorage;

  beforeAll(async () => {
    s3 = await startTestS3();
    storage = new ObjectStorage(s3.config);
  });
  afterAll(async () => {
    storage.close();
    await s3.close();
  });

  const readBack = async (key: string) => Buffer.from(await (await fetch(await storage.signedGetUrl(key, { expiresInSeconds: 60 }))).arrayBuffer());

  it('streams an object in, tells its size, and hands out a signed URL that reads it back', async () => {
    await storage.put({ key: 'user-1/1.txt', body: Readable.from([Buffer.from('hello '), Buffer.from('spark')]), contentType: 'text/plain' });
    expect(await storage.head('user-1/1.txt')).toMatchObject({ bytes: 11 });
    expect(await storage.exists('user-1/missing.txt')).toBe(false);
    expect((await readBack('user-1/1.txt')).toString()).toBe('hello spark');
  });

  it('streams a body longer than one part in parts and reads back every byte', async () => {
    const length = 2 * PART_SIZE + 123;
    await storage.put({ key: 'user-1/a.bin', body: chunked(length, 0x61), contentType: 'application/octet-stream' });
    expect(sha256(await readBack('user-1/a.bin'))).toBe(sha256(Buffer.alloc(length, 0x61)));
  });

  it('signs keys with spaces and reserved characters, and offers a download name', async () => {
    const key = "user-1/it's a (sample) +1 ünïcode!.txt";
    await storage.put({ key, body: 'odd name', contentType: 'text/plain' });
    expect((await readBack(key)).toString()).toBe('odd name');
    const response = await fetch(await storage.signedGetUrl(key, { downloadName: 'odd "name".txt' }));
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="odd name.txt"');
  });

  it('grants a PUT URL a client uploads to without credentials', async () => {
    const url = await storage.signedPutUrl('incoming/user-1/upload', { bytes: 5, contentType: 'text/plain', expiresInSeconds: 60 });
    const response = await fetch(url, { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: 'hello' });
    expect(response.status).toBe(200);
    expect((await readBack('incoming/user-1/upload')).toString()).toBe('hello');
  });

  it('fails with S3’s own error code when the bucket does not exist', async () => {
    await expect(storage.put({ bucket: 'missing', key: 'a.txt', body: 'x', contentType: 'text/plain' })).rejects.toMatchObject({ name: 'NoSuchBucket' });
  });

  it('fails and leaves no object when the body breaks after the first part', async () => {
    const body = chunked(3 * PART_SIZE, 1);
    let seen = 0;
    body.on('data', (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > PART_SIZE + 1024 * 1024) body.destroy(new Error('connection cut'));
    });
    body.pause();
    // Against S3 the stream's own error; s3rver cannot abort a multipart upload and answers that instead.
    await expect(storage.put({ key: 'user-1/broken.bin', body, contentType: 'application/octet-stream' })).rejects.toThrow();
    expect(await storage.exists('user-1/broken.bin')).toBe(false);
  });

  it('deletes only the objects under a prefix written before a cutoff', async () => {
    await storage.put({ key: 'incoming/user-2/old', body: 'old', contentType: 'text/plain' });
    const cutoff = new Date(Date.now() + 1000);
    expect(await storage.deleteOlderThan('incoming/user-2/', new Date(Date.now() - 60_000))).toBe(0);
    expect(await storage.deleteOlderThan('incoming/user-2/', cutoff)).toBe(1);
    expect(await storage.exists('incoming/user-2/old')).toBe(false);
    expect(await storage.exists('user-1/a.bin')).toBe(true);
  });
});
