import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  type CompletedPart,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { StorageConfig } from '@spark/config';
import { collectYoungGarbage } from './young-garbage';

/** S3's minimum part size (every part but the last); also the most a stream upload holds per buffer. */
export const PART_SIZE = 5 * 1024 * 1024;

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
      // No CRC32 of every body (and no x-amz-checksum-mode on reads) unless the operation requires one: SigV4
      // already signs each body's SHA-256, and S3-compatible stores (s3rver, MinIO, ...) need no extra header.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    this.defaultBucket = config.S3_BUCKET;
  }

  /**
   * A body that fits in one part (every photo) is one PUT. A longer stream becomes a multipart upload
   * through two part buffers: one is sent while the other fills from the stream, which is not read
   * further until a buffer is free (back-pressure). The buffers are reused by the next upload, so a
   * stream upload holds 2 × 5 MiB, each byte copied once, whatever its length. A failed multipart
   * upload is aborted, leaving no parts behind.
   */
  async put(input: PutObjectInput): Promise<{ bucket: string; key: string }> {
    const bucket = input.bucket ?? this.defaultBucket;
    const params = { Bucket: bucket, Key: input.key, ContentType: input.contentType, CacheControl: `max-age=${input.cacheControlSeconds ?? 3600}` };
    if (!(input.body instanceof Readable)) {
      await this.client.send(new PutObjectCommand({ ...params, Body: input.body }));
      return { bucket, key: input.key };
    }
    const reader = new PartReader(input.body[Symbol.asyncIterator]() as AsyncIterator<Buffer>);
    const whole = await reader.wholeIfOnePart();
    if (whole) await this.client.send(new PutObjectCommand({ ...params, Body: whole }));
    else await this.putParts(params, reader);
    return { bucket, key: input.key };
  }

  private async putParts(params: { Bucket: string; Key: string }, reader: PartReader): Promise<void> {
    const { UploadId } = await this.client.send(new CreateMultipartUploadCommand(params));
    const target = { Bucket: params.Bucket, Key: params.Key, UploadId };
    // `sending` holds the part in flight, `spare` is free; both go back to the pool only after success,
    // as a failed part may still be read by the SDK.
    let sending = takePartBuffer();
    let spare: Buffer | undefined;
    try {
      const parts: CompletedPart[] = [];
      let length = await reader.fill(sending);
      for (let partNumber = 1; length > 0; partNumber++) {
        const filling = spare ?? takePartBuffer();
        const upload = this.client.send(new UploadPartCommand({ ...target, PartNumber: partNumber, Body: sending.subarray(0, length) }));
        // A failed part ends the upload at once; a failed stream only once the part in flight has settled,
        // since S3 may keep a part that arrives after the abort.
        const next = reader.fill(filling).catch(async (error: unknown) => {
          await upload.catch(() => undefined);
          throw error;
        });
        const [{ ETag }, filled] = await Promise.all([upload, next]);
        if (!ETag) throw new Error(`S3 answered part ${partNumber} of ${params.Key} without an ETag`);
        parts.push({ PartNumber: partNumber, ETag });
        [spare, sending, length] = [sending, filling, filled];
        collectYoungGarbage();
      }
      await this.client.send(new CompleteMultipartUploadCommand({ ...target, MultipartUpload: { Parts: parts } }));
    } catch (error) {
      await this.client.send(new AbortMultipartUploadCommand(target)).catch(() => undefined);
      throw error;
    }
    givePartBuffer(sending);
    if (spare) givePartBuffer(spare);
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

// Part buffers kept for the next stream upload. Overlapping uploads make more; only two are kept.
const spareParts: Buffer[] = [];
const takePartBuffer = () => spareParts.pop() ?? Buffer.allocUnsafeSlow(PART_SIZE);
const givePartBuffer = (part: Buffer) => {
  if (spareParts.length < 2) spareParts.push(part);
};

/** Reads a stream of chunks into parts, pulling the next chunk only when there is room for it. */
class PartReader {
  private ended = false;
  private readonly pending: Buffer[] = [];

  constructor(private readonly chunks: AsyncIterator<Buffer>) {}

  /**
   * The whole body when it is at most PART_SIZE long (joined once, or not at all when it came in one
   * chunk); otherwise undefined, and the chunks read so far are what `fill` copies first.
   */
  async wholeIfOnePart(): Promise<Buffer | undefined> {
    let length = 0;
    while (length <= PART_SIZE) {
      const chunk = await this.next();
      if (!chunk) return this.pending.length === 1 ? this.pending.pop() : Buffer.concat(this.pending.splice(0), length);
      this.pending.push(chunk);
      length += chunk.length;
    }
    return undefined;
  }

  /** Copies the next bytes into `part` until it is full or the stream ends; returns how many. */
  async fill(part: Buffer): Promise<number> {
    let filled = 0;
    while (filled < part.length) {
      const chunk = this.pending.shift() ?? (await this.next());
      if (!chunk) break;
      const copied = chunk.copy(part, filled);
      filled += copied;
      if (copied < chunk.length) this.pending.unshift(chunk.subarray(copied));
    }
    return filled;
  }

  private async next(): Promise<Buffer | undefined> {
    if (this.ended) return undefined;
    const result = await this.chunks.next();
    this.ended = result.done === true;
    return result.done ? undefined : result.value;
  }
}
