import { startTestS3, type TestS3 } from '@spark/testing';
import { readErasureNotes, writeErasureNote } from './erasure-notes';
import { ObjectStorage } from './object-storage';

describe('erasure notes in a real S3-compatible bucket', () => {
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

  it("keeps the first erasure's time when the erasure runs again, a retry or a replay after a restore", async () => {
    const subject = { userId: '6d2f1c0e-8a4b-4c3d-9e7f-1a2b3c4d5e6f', email: 'Noor@Example.com ' };
    await writeErasureNote(storage, subject);
    const [first] = await readErasureNotes(storage);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await writeErasureNote(storage, subject);
    expect(await readErasureNotes(storage)).toEqual([first]);
  });
});
