import type { Readable } from 'node:stream';
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  NoSuchKey,
  NotFound,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { StorageConfig } from '@spark/config';

export interface PutObjectInput {
  bucket?: string;
  key: string;
  body: Readable | Buffer | string;
  contentType: string;
  /** Seconds; the spec's storage cache control is 3600. */
  cacheControlSeconds?: number;
}

/**
 * The only place that speaks S3. Buckets are private: readers get short-lived signed URLs, handed
 * out only after the caller's right to the object was checked.
 */
export class ObjectStorage {
  private readonly client: S3Client;
  readonly defaultBucket: string;

  constructor(config: StorageConfig) {
    this.client = new S3Client({
      endpoint: config.S3_ENDPOINT,
      region: config.S3_REGION,
      forcePathStyle: true,
      credentials: { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY },
    });
    this.defaultBucket = config.S3_BUCKET;
  }

  /** Streams the body in parts (5 MiB each, at most 2 in flight), so memory stays flat for large files. */
  async put(input: PutObjectInput): Promise<{ bucket: string; key: string }> {
    const bucket = input.bucket ?? this.defaultBucket;
    await new Upload({
      client: this.client,
      queueSize: 2,
      partSize: 5 * 1024 * 1024,
      params: {
        Bucket: bucket,
        Key: input.key,
        Body: input.body,
        ContentType: input.contentType,
        CacheControl: `max-age=${input.cacheControlSeconds ?? 3600}`,
      },
    }).done();
    return { bucket, key: input.key };
  }

  async exists(key: string, bucket = this.defaultBucket): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      return true;
    } catch (error) {
      if (error instanceof NotFound || error instanceof NoSuchKey || (error as { name?: string }).name === 'NotFound') return false;
      throw error;
    }
  }

  async getText(key: string, bucket = this.defaultBucket): Promise<string> {
    const object = await this.client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    return (await object.Body?.transformToString('utf-8')) ?? '';
  }

  async delete(key: string, bucket = this.defaultBucket): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
  }

  /** A GET URL valid for `expiresInSeconds` (default 1 hour). */
  signedGetUrl(key: string, options: { bucket?: string; expiresInSeconds?: number; downloadName?: string } = {}): Promise<string> {
    return getSignedUrl(
      this.client,
      new GetObjectCommand({
        Bucket: options.bucket ?? this.defaultBucket,
        Key: key,
        ...(options.downloadName ? { ResponseContentDisposition: `attachment; filename="${options.downloadName.replace(/"/g, '')}"` } : {}),
      }),
      { expiresIn: options.expiresInSeconds ?? 3600 },
    );
  }

  /** Creates the bucket when missing (local and test stacks; production buckets are provisioned). */
  async ensureBucket(bucket = this.defaultBucket): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: bucket }));
    } catch {
      await this.client.send(new CreateBucketCommand({ Bucket: bucket }));
    }
  }

  close(): void {
    this.client.destroy();
  }
}
