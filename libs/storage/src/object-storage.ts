import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  type CompletedPart,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  NotFound,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { S3RequestPresigner } from '@aws-sdk/s3-request-presigner';
import type { StorageConfig } from '@spark/config';
import { collectYoungGarbage } from './young-garbage';

/** S3's minimum part size (every part but the last); also the most a stream upload holds per buffer. */
export const PART_SIZE = 5 * 1024 * 1024;
// As the SDK's standard retry mode: transient failures (the network, 5xx, 429) are tried 3 times.
const MAX_ATTEMPTS = 3;

type Signer = Awaited<ReturnType<S3Client['config']['signer']>>;
type SignableRequest = Parameters<Signer['sign']>[0];

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
  private readonly endpoint: URL;
  private readonly region: string;
  private signer?: Promise<Signer>;
  private presigner?: S3RequestPresigner;
  readonly defaultBucket: string;

  constructor(config: StorageConfig) {
    this.endpoint = new URL(config.S3_ENDPOINT);
    this.region = config.S3_REGION;
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
    if (typeof input.body === 'string' || Buffer.isBuffer(input.body)) {
      await this.putObject(params, typeof input.body === 'string' ? Buffer.from(input.body) : input.body);
      return { bucket, key: input.key };
    }
    const reader = new PartReader(input.body[Symbol.asyncIterator]() as AsyncIterator<Buffer>);
    const whole = await reader.wholeIfOnePart();
    if (whole) await this.putObject(params, whole);
    else await this.putParts(params, reader);
    return { bucket, key: input.key };
  }

  /**
   * One PUT of a body in memory, signed by the client's own SigV4 signer and sent by its own HTTP handler,
   * without the per-command middleware stack: on this 2-core machine that stack cost 2.7 ms of CPU per
   * small photo, the signed request 1.3 ms (docs/benchmarks.md, "Sparks"). Parts still go through commands.
   */
  private async putObject(params: { Bucket: string; Key: string; ContentType: string; CacheControl: string }, body: Buffer): Promise<void> {
    const request = this.requestTo('PUT', params.Bucket, params.Key, {
      'content-type': params.ContentType,
      'cache-control': params.CacheControl,
      'content-length': String(body.length),
      'x-amz-content-sha256': createHash('sha256').update(body).digest('hex'),
    });
    const signed = await (await (this.signer ??= this.client.config.signer())).sign({ ...request, body }, { signingRegion: this.region, signingService: 's3' });
    for (let attempt = 1; ; attempt++) {
      const failure = await this.client.config.requestHandler.handle(signed).then(
        async ({ response }: { response: { statusCode: number; body: Readable } }) => {
          if (response.statusCode < 300) return void response.body.resume();
          return { error: await s3Error(response.statusCode, response.body), transient: response.statusCode >= 500 || response.statusCode === 429 };
        },
        (error: Error) => ({ error, transient: true }),
      );
      if (!failure) return;
      if (!failure.transient || attempt === MAX_ATTEMPTS) throw failure.error;
      await sleep(50 * 2 ** attempt * Math.random());
    }
  }

  /** A path-style request to the configured endpoint, the key encoded as the SDK encodes it. */
  private requestTo(method: string, bucket: string, key: string, headers: Record<string, string> = {}, query: Record<string, string> = {}): SignableRequest {
    const { protocol, hostname, port, host, pathname } = this.endpoint;
    const path = `${pathname.replace(/\/$/, '')}/${bucket}/${key.split('/').map(escapeUri).join('/')}`;
    return { method, protocol, hostname, port: port ? Number(port) : undefined, path, query, headers: { host, ...headers } };
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

  /** The object's bytes as a stream, read from S3 only as fast as the caller consumes it. */
  async getStream(key: string, bucket = this.defaultBucket): Promise<Readable> {
    const object = await this.client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    return object.Body as Readable;
  }

  /**
   * A stream of unknown length (an archive being written) uploaded by the SDK's own multipart Upload:
   * it holds at most `queueSize` parts, so memory stays bounded whatever the length, and it aborts the
   * upload on failure.
   */
  async uploadStream(input: { key: string; body: Readable; contentType: string; bucket?: string }): Promise<void> {
    const upload = new Upload({
      client: this.client,
      params: { Bucket: input.bucket ?? this.defaultBucket, Key: input.key, Body: input.body, ContentType: input.contentType },
      partSize: PART_SIZE,
      queueSize: 2,
      leavePartsOnError: false,
    });
    await upload.done();
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

  /** A GET URL valid for `expiresInSeconds` (default 1 hour), signed by one reused presigner (no command stack). */
  async signedGetUrl(key: string, options: { bucket?: string; expiresInSeconds?: number; downloadName?: string } = {}): Promise<string> {
    const query: Record<string, string> = options.downloadName
      ? { 'response-content-disposition': `attachment; filename="${options.downloadName.replace(/"/g, '')}"` }
      : {};
    this.presigner ??= new S3RequestPresigner({ ...this.client.config, signingName: 's3' });
    const signed = await this.presigner.presign(this.requestTo('GET', options.bucket ?? this.defaultBucket, key, {}, query), {
      expiresIn: options.expiresInSeconds ?? 3600,
      signingRegion: this.region,
    });
    const search = Object.entries(signed.query ?? {})
      .map(([name, value]) => `${escapeUri(name)}=${escapeUri(String(value))}`)
      .join('&');
    return `${signed.protocol}//${signed.headers.host ?? signed.hostname}${signed.path}?${search}`;
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

// RFC 3986 escaping, as S3 and the SDK expect in paths and query strings.
const escapeUri = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** S3's error document as an Error named by its code (NoSuchBucket, AccessDenied, ...). */
async function s3Error(statusCode: number, body: Readable): Promise<Error> {
  let text = '';
  for await (const chunk of body) if (text.length < 64 * 1024) text += String(chunk);
  const tag = (name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(text)?.[1];
  return Object.assign(new Error(tag('Message') ?? `S3 answered HTTP ${statusCode}`), { name: tag('Code') ?? `Http${statusCode}`, statusCode });
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
