import { Readable } from 'node:stream';
import { startTestS3, type TestS3 } from '@spark/testing';
import { ObjectStorage } from './object-storage';

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

  it('streams an object in, tells it exists, and hands out a signed URL that reads it back', async () => {
    await storage.put({ key: 'user-1/1.txt', body: Readable.from([Buffer.from('hello '), Buffer.from('spark')]), contentType: 'text/plain' });
    expect(await storage.exists('user-1/1.txt')).toBe(true);
    expect(await storage.exists('user-1/missing.txt')).toBe(false);
    const response = await fetch(await storage.signedGetUrl('user-1/1.txt', { expiresInSeconds: 60 }));
    expect(await response.text()).toBe('hello spark');
  });
});
