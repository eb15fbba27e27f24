import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3';
import type { StorageConfig } from '@spark/config';
import { BatchedDeletes, type DeleteFailureListener } from './batched-deletes';
import { ObjectRequests, StorageRequestError } from './object-requests';
import { type SignedGetOptions, type SignedPutOptions, UrlSigner } from './url-signer';

/** The part size of stream uploads (S3's minimum for every part but the last). */
export const PART_SIZE = 5 * 1024 * 1024;

/** How long a deletion nobody waits for may wait for others to go with it (`deleteLater`). */
const DELETE_LATER_WINDOW_MS = 100;

export interface PutObjectInput {
  bucket?: string;
  key: string;
  /** A stream or any async iterable of chunks is read as S3 takes it, in parts when longer than one. */
  body: Readable | AsyncIterable<Buffer> | Buffer | string;
  contentType: string;
  /** Seconds; the storage cache control of docs/product.md §9 is 3600. */
  cacheControlSeconds?: number;
}

/** An object being read: its bytes as S3 sends them, and how many there are. */
export interface OpenedObject {
  body: Readable;
  bytes: number;
}

// A HEAD's 404 has no body to name the error; a GET's names NoSuchKey (or NoSuchBucket, which is not a missing object).
const isMissing = (error: unknown) => error instanceof StorageRequestError && ['NotFound', 'NoSuchKey'].includes(error.code);

type Sdk = typeof import('@aws-sdk/client-s3');

/** How every S3 client of the product is set up (path-style, no checksums S3 does not require). */
export const s3ClientConfig = (config: StorageConfig): S3ClientConfig => ({
  endpoint: config.S3_ENDPOINT,
  region: config.S3_REGION,
  forcePathStyle: true,
  credentials: { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY },
  // No CRC32 of every body (and no x-amz-checksum-mode on reads) unless the operation requires one: SigV4
  // already signs each body, presigned uploads from browsers carry no checksum, and S3-compatible stores
  // (s3rver, MinIO, ...) need no extra header.
  requestChecksumCalculation: 'WHEN_REQUIRED',
  responseChecksumValidation: 'WHEN_REQUIRED',
});

/**
 * The only place that speaks S3: one-object requests signed with the SDK's SigV4 signer and sent directly
 * (`ObjectRequests`), streams through the SDK's `Upload`, listings and bulk deletes through its commands. Buckets are
 * private: readers get short-lived signed URLs, handed out only after the caller's right to the object was checked.
 */
export class ObjectStorage {
  private loaded?: Promise<{ sdk: Sdk; client: S3Client }>;
  private readonly urls: UrlSigner;
  private readonly requests: ObjectRequests;
  private readonly laterDeletes: BatchedDeletes;
  readonly defaultBucket: string;

  constructor(
    private readonly config: StorageConfig,
    options: { answerTimeoutMs?: number; onLaterDeleteFailed?: DeleteFailureListener } = {},
  ) {
    this.urls = new UrlSigner(config);
    this.requests = new ObjectRequests(this.urls, new URL(config.S3_ENDPOINT), options.answerTimeoutMs);
    this.laterDeletes = new BatchedDeletes((bucket, keys) => this.deleteKeys(keys, bucket), DELETE_LATER_WINDOW_MS, options.onLaterDeleteFailed);
    this.defaultBucket = config.S3_BUCKET;
  }

  // The S3 client and its commands weigh on a process's memory once loaded: a process that signs URLs and sends
  // one-object requests (the gateway) loads them only if it ever streams an upload, lists or deletes in bulk.
  private s3(): Promise<{ sdk: Sdk; client: S3Client }> {
    return (this.loaded ??= import('@aws-sdk/client-s3').then((sdk) => ({ sdk, client: new sdk.S3Client(s3ClientConfig(this.config)) })));
  }

  /**
   * A body in memory is one PutObject request; a stream goes through the SDK's multipart `Upload`, which holds at most
   * two parts at once whatever the length and aborts the upload (no parts left behind) when the stream or S3 fails.
   */
  async put(input: PutObjectInput): Promise<{ bucket: string; key: string }> {
    const bucket = input.bucket ?? this.defaultBucket;
    const params = { Bucket: bucket, Key: input.key, ContentType: input.contentType, CacheControl: `max-age=${input.cacheControlSeconds ?? 3600}` };
    if (typeof input.body === 'string' || Buffer.isBuffer(input.body)) {
      const headers = { 'content-type': params.ContentType, 'cache-control': params.CacheControl };
      const body = typeof input.body === 'string' ? Buffer.from(input.body) : input.body;
      (await this.requests.request('PutObject', input.key, { bucket, body, headers })).resume();
    } else {
      const { client } = await this.s3();
      const body = input.body instanceof Readable ? input.body : Readable.from(input.body);
      // A broken body is the failure to report, not whatever the abort that follows it answers.
      let bodyError: unknown;
      body.once('error', (error) => (bodyError = error));
      const { Upload } = await import('@aws-sdk/lib-storage');
      const upload = new Upload({ client, params: { ...params, Body: body }, partSize: PART_SIZE, queueSize: 2, leavePartsOnError: false });
      await upload.done().catch((error: unknown) => {
        throw bodyError ?? error;
      });
    }
    return { bucket, key: input.key };
  }

  async exists(key: string, bucket = this.defaultBucket): Promise<boolean> {
    try {
      (await this.requests.request('HeadObject', key, { bucket })).resume();
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  async getText(key: string, bucket = this.defaultBucket): Promise<string> {
    return text(await this.getStream(key, bucket));
  }

  /** The object's bytes as a stream with its size, or undefined when there is no such object: one request, no HEAD first. */
  async open(key: string, bucket = this.defaultBucket): Promise<OpenedObject | undefined> {
    try {
      const body = await this.requests.request('GetObject', key, { bucket });
      return { body, bytes: Number(body.headers['content-length'] ?? 0) };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  /** The object's bytes as a stream, read from S3 only as fast as the caller consumes it. */
  getStream(key: string, bucket = this.defaultBucket): Promise<Readable> {
    return this.requests.request('GetObject', key, { bucket });
  }

  async delete(key: string, bucket = this.defaultBucket): Promise<void> {
    (await this.requests.request('DeleteObject', key, { bucket })).resume();
  }

  /**
   * Deletes the object soon, in one request with the others queued within a moment, and without an answer: for
   * objects under a prefix that is swept, so that one a failed request or a dead process leaves is deleted anyway.
   */
  deleteLater(key: string, bucket = this.defaultBucket): void {
    this.laterDeletes.add(bucket, key);
  }

  /** Deletes the keys (at most `MAX_KEYS_PER_DELETE`) in one request. */
  private async deleteKeys(keys: string[], bucket: string): Promise<void> {
    const { sdk, client } = await this.s3();
    const Objects = keys.map((Key) => ({ Key }));
    const result = await client.send(new sdk.DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects, Quiet: true } }));
    if (result.Errors?.length) throw new Error(`S3 refused to delete ${result.Errors.length} objects: ${result.Errors[0]?.Message ?? ''}`);
  }

  /** The key of every object under `prefix`, a listed page (up to 1000 keys) per request. */
  async keysUnder(prefix: string, bucket = this.defaultBucket): Promise<string[]> {
    const { sdk, client } = await this.s3();
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const listed = await client.send(new sdk.ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
      keys.push(...(listed.Contents ?? []).flatMap((object) => (object.Key ? [object.Key] : [])));
      token = listed.IsTruncated ? listed.NextContinuationToken : undefined;
    } while (token);
    return keys;
  }

  /** Deletes every object whose key starts with `prefix`, a listed page (up to 1000 keys) per request; returns how many. */
  async deleteUnder(prefix: string, bucket = this.defaultBucket): Promise<number> {
    const { sdk, client } = await this.s3();
    let deleted = 0;
    for (;;) {
      // Always the first page: the keys just deleted are gone from the next listing.
      const listed = await client.send(new sdk.ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
      const keys = (listed.Contents ?? []).flatMap((object) => (object.Key ? [object.Key] : []));
      if (keys.length === 0) return deleted;
      await this.deleteKeys(keys, bucket);
      deleted += keys.length;
    }
  }

  /** Deletes the objects under `prefix` last written before `cutoff` (uploads never claimed); returns how many. */
  async deleteOlderThan(prefix: string, cutoff: Date, bucket = this.defaultBucket): Promise<number> {
    const { sdk, client } = await this.s3();
    let deleted = 0;
    let ContinuationToken: string | undefined;
    do {
      const listed = await client.send(new sdk.ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken }));
      const stale = (listed.Contents ?? []).flatMap((object) => (object.Key && object.LastModified && object.LastModified < cutoff ? [object.Key] : []));
      if (stale.length > 0) await this.deleteKeys(stale, bucket);
      deleted += stale.length;
      ContinuationToken = listed.IsTruncated ? listed.NextContinuationToken : undefined;
    } while (ContinuationToken);
    return deleted;
  }

  /** A GET URL valid for `expiresInSeconds` (default 1 hour), optionally answered as a download named `downloadName`. */
  signedGetUrl(key: string, options: SignedGetOptions = {}): Promise<string> {
    return this.urls.signedGetUrl(key, options);
  }

  /** A PUT URL for exactly `bytes` bytes of `contentType` at `key`; see `UrlSigner.signedPutUrl`. */
  signedPutUrl(key: string, options: SignedPutOptions): Promise<string> {
    return this.urls.signedPutUrl(key, options);
  }

  /** Sends the deletions still queued, then lets go of the connections. */
  async close(): Promise<void> {
    await this.laterDeletes.flush();
    this.requests.close();
    void this.loaded?.then(
      ({ client }) => client.destroy(),
      () => undefined,
    );
  }
}
