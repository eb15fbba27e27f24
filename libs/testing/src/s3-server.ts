import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import type { StorageConfig } from '@spark/config';
import S3rver from 's3rver';
import { repositoryFile } from './repository-files';
import './s3rver-folders';

export interface TestS3 {
  config: StorageConfig;
  /** The same settings as environment variables, for apps started with an env. */
  env: Record<string, string>;
  /** The keys of the objects under `prefix` in `bucket` (the sparks bucket by default). */
  keysUnder(prefix: string, bucket?: string): Promise<string[]>;
  /** Stops the server and deletes its data; a second call waits for the first. */
  close(): Promise<void>;
}

/** A real S3-compatible server (s3rver) on loopback with the product's buckets, data in a temp dir. */
export async function startTestS3(buckets = ['sparks', 'log']): Promise<TestS3> {
  const directory = await mkdtemp(join(tmpdir(), 'spark-s3-'));
  // The sparks bucket takes uploads straight from the browser, as in every deployment (deploy/s3/cors.xml).
  const cors = await readFile(repositoryFile('deploy/s3/cors.xml'));
  const configureBuckets = buckets.map((name) => ({ name, configs: name === 'sparks' ? [cors] : [] }));
  const server = new S3rver({ port: 0, address: '127.0.0.1', directory, silent: true, configureBuckets });
  const { port } = await server.run();
  const config: StorageConfig = {
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_REGION: 'us-east-1',
    S3_BUCKET: 'sparks',
    S3_LOG_BUCKET: 'log',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
  };
  const client = new S3Client({
    endpoint: config.S3_ENDPOINT,
    region: config.S3_REGION,
    forcePathStyle: true,
    credentials: { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY },
  });
  let closing: Promise<void> | undefined;
  return {
    config,
    env: { ...config },
    async keysUnder(prefix, bucket = config.S3_BUCKET) {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
      return (listed.Contents ?? []).flatMap((object) => (object.Key ? [object.Key] : []));
    },
    // Once only: a test may stop the storage itself before its stack does.
    close() {
      closing ??= (async () => {
        client.destroy();
        await server.close();
        await rm(directory, { recursive: true, force: true });
      })();
      return closing;
    },
  };
}
