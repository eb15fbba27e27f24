import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StorageConfig } from '@spark/config';
import S3rver from 's3rver';

export interface TestS3 {
  config: StorageConfig;
  /** The same settings as environment variables, for apps started with an env. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** A real S3-compatible server (s3rver) on loopback with the product's buckets, data in a temp dir. */
export async function startTestS3(buckets = ['sparks', 'log']): Promise<TestS3> {
  const directory = await mkdtemp(join(tmpdir(), 'spark-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', directory, silent: true, configureBuckets: buckets.map((name) => ({ name })) });
  const { port } = await server.run();
  const config: StorageConfig = {
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_REGION: 'us-east-1',
    S3_BUCKET: 'sparks',
    S3_LOG_BUCKET: 'log',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
  };
  return {
    config,
    env: { ...config },
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
