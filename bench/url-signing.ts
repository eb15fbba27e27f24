// `npm run build:node && node dist/bench/url-signing.js`: what one presigned S3 URL costs, made by the SDK's
// `getSignedUrl` (a whole S3 client's middleware stack and endpoint rules per URL) and by the product's `UrlSigner`
// (the SDK's SigV4 signer alone). A page of sparks signs one URL per spark, a capture's grant one PUT URL.
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { StorageConfig } from '@spark/config';
import { s3ClientConfig, UrlSigner } from '@spark/storage';

const rounds = Number(process.env.BENCH_ROUNDS ?? 5000);
const config = {
  S3_ENDPOINT: 'http://127.0.0.1:4569',
  S3_REGION: 'us-east-1',
  S3_BUCKET: 'sparks',
  S3_ACCESS_KEY_ID: 'bench',
  S3_SECRET_ACCESS_KEY: 'bench-secret',
} as StorageConfig;
const client = new S3Client(s3ClientConfig(config));
const signer = new UrlSigner(config);
const key = (i: number) => `0b0e2f4c-8d1a-4c3e-9f6b-2a7d5e1c9b30/2026/11/${i}.jpg`;

const ways: Record<string, (i: number) => Promise<string>> = {
  'GET, getSignedUrl': (i) => getSignedUrl(client, new GetObjectCommand({ Bucket: 'sparks', Key: key(i) }), { expiresIn: 900 }),
  'GET, UrlSigner': (i) => signer.signedGetUrl(key(i), { expiresInSeconds: 900 }),
  'PUT, getSignedUrl': (i) =>
    getSignedUrl(client, new PutObjectCommand({ Bucket: 'sparks', Key: key(i), ContentLength: 18_432, ContentType: 'image/jpeg' }), {
      expiresIn: 900,
      signableHeaders: new Set(['content-length', 'content-type']),
    }),
  'PUT, UrlSigner': (i) => signer.signedPutUrl(key(i), { bytes: 18_432, contentType: 'image/jpeg', expiresInSeconds: 900 }),
};

async function main() {
  for (const pass of ['warm-up', 'measured']) {
    for (const [name, sign] of Object.entries(ways)) {
      const started = process.cpuUsage();
      for (let i = 0; i < rounds; i++) await sign(i);
      const { user, system } = process.cpuUsage(started);
      if (pass === 'measured') console.log(`${name}: ${((user + system) / rounds).toFixed(1)} µs of CPU per URL (${rounds} URLs)`);
    }
  }
  client.destroy();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
