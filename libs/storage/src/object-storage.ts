import { Readable } from 'node:stream';
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { StorageConfig } from '@spark/config';

/** S3's minimum part size (every part but the last); also the most a stream upload holds per buffer. */
export const PART_SIZE = 5 * 1024 * 1024;
export interface PutObjectInput {
  bucket?: string;
  key: string;
  /** A stream or any async iterable of chunks is read as S3 takes it, in parts when longer than one. */
  body: Readable | AsyncIterable<Buffer> | Buffer | string;
  contentType: string;
  /** Seconds; the storage cache control of docs/product.md §9 is 3600. */
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
      // No CRC32 of every body (and no x-amz-checksum-mode on reads) unless the operation requires one: SigV4
      // already signs each body's SHA-256, and S3-compatible stores (s3rver, MinIO, ...) need no extra header.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    this.defaultBucket = config.S3_BUCKET;
  }

  /**
   * A body in memory is one PutObject. A stream goes through the SDK's `Upload`: one PutObject when it fits in a
   * part, otherwise a multipart upload holding at most two 5 MiB parts at a time (back-pressure on the stream),
   * aborted on failure so no parts are left behind.
   */
  async put(input: PutObjectInput): Promise<{ bucket: string; key: string }> {
    const bucket = input.bucket ?? this.defaultBucket;
    const params = { Bucket: bucket, Key: input.key, ContentType: input.contentType, CacheControl: `max-age=${input.cacheControlSeconds ?? 3600}` };
    if (typeof input.body === 'string' || Buffer.isBuffer(input.body)) {
      await this.client.send(new PutObjectCommand({ ...params, Body: input.body }));
    } else {
      const body = input.body instanceof Readable ? input.body : Readable.from(input.body);
      // A broken body is the failure to report, not whatever the abort that follows it answers.
      let bodyError: unknown;
      body.once('error', (error) => (bodyError = error));
      const upload = new Upload({ client: this.client, params: { ...params, Body: body }, partSize: PART_SIZE, queueSize: 2, leavePartsOnError: false });
      await upload.done().catch((error: unknown) => {
        throw bodyError ?? error;
      });
    }
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

  /** The object's bytes as a stream, read from S3 only as fast as the caller consumes it. */
  async getStream(key: string, bucket = this.defaultBucket): Promise<Readable> {
    const object = await this.client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    return object.Body as Readable;
  }

  async delete(key: string, bucket = this.defaultBucket): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
  }

  /** Deletes every object whose key starts with `prefix`, a listed page (up to 1000 keys) per request; returns how many. */
  async deleteUnder(prefix: string, bucket = this.defaultBucket): Promise<number> {
    let deleted = 0;
    for (;;) {
      // Always the first page: the keys just deleted are gone from the next listing.
      const listed = await this.client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
      const keys = (listed.Contents ?? []).flatMap((object) => (object.Key ? [{ Key: object.Key }] : []));
      if (keys.length === 0) return deleted;
      const result = await this.client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys, Quiet: true } }));
      if (result.Errors?.length) throw new Error(`S3 refused to delete ${result.Errors.length} objects under ${prefix}: ${result.Errors[0]?.Message ?? ''}`);
      deleted += keys.length;
    }
  }

  /** A GET URL valid for `expiresInSeconds` (default 1 hour); with `downloadName`, the browser saves it under that name. */
  signedGetUrl(key: string, options: { bucket?: string; expiresInSeconds?: number; downloadName?: string } = {}): Promise<string> {
    const disposition = options.downloadName ? `attachment; filename="${options.downloadName.replace(/"/g, '')}"` : undefined;
    const command = new GetObjectCommand({ Bucket: options.bucket ?? this.defaultBucket, Key: key, ResponseContentDisposition: disposition });
    return getSignedUrl(this.client, command, { expiresIn: options.expiresInSeconds ?? 3600 });
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
