import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { StorageConfig } from '@spark/config';
import { s3ClientConfig } from './object-storage';
import { UrlSigner } from './url-signer';

const signingDate = new Date('2026-11-26T17:45:23Z');
const endpoints = ['http://127.0.0.1:4569', 'https://s3.eu-central-1.amazonaws.com', 'https://storage.example.com/s3'];
const keys = ['u1/2026/11/a.jpg', 'incoming/user 1/ä+x=y&z', "weird/key(1)!*'~.png"];

const configFor = (endpoint: string): StorageConfig =>
  ({
    S3_ENDPOINT: endpoint,
    S3_REGION: 'eu-central-1',
    S3_BUCKET: 'sparks',
    S3_ACCESS_KEY_ID: 'AKIDEXAMPLE',
    S3_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
  }) as StorageConfig;

// The SDK's presigner is the reference: a URL that differs from it by a byte would be one S3 refuses.
describe.each(endpoints)('UrlSigner at %s', (endpoint) => {
  const config = configFor(endpoint);
  const signer = new UrlSigner(config);
  const client = new S3Client(s3ClientConfig(config));
  afterAll(() => client.destroy());

  it.each(keys)('signs a GET of %s as the SDK does', async (key) => {
    const expected = await getSignedUrl(client, new GetObjectCommand({ Bucket: 'sparks', Key: key }), { expiresIn: 900, signingDate });
    await expect(signer.signedGetUrl(key, { expiresInSeconds: 900, signingDate })).resolves.toBe(expected);
  });

  it('signs a download under its name, in another bucket, as the SDK does', async () => {
    const command = new GetObjectCommand({ Bucket: 'exports', Key: 'u1/export.zip', ResponseContentDisposition: 'attachment; filename="spark export.zip"' });
    const expected = await getSignedUrl(client, command, { expiresIn: 3600, signingDate });
    await expect(signer.signedGetUrl('u1/export.zip', { bucket: 'exports', downloadName: 'spark "export".zip', signingDate })).resolves.toBe(expected);
  });

  it.each(keys)('signs a PUT of %s with its length and type as the SDK does', async (key) => {
    const command = new PutObjectCommand({ Bucket: 'sparks', Key: key, ContentLength: 18_432, ContentType: 'image/png' });
    const expected = await getSignedUrl(client, command, { expiresIn: 900, signingDate, signableHeaders: new Set(['content-length', 'content-type']) });
    const url = await signer.signedPutUrl(key, { bytes: 18_432, contentType: 'image/png', expiresInSeconds: 900, signingDate });
    expect(url).toBe(expected);
    expect(new URL(url).searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host');
  });
});
