import { buildQueryString, extendedEncodeURIComponent } from '@smithy/core/protocols';
import { SignatureV4 } from '@smithy/signature-v4';
import type { StorageConfig } from '@spark/config';
import { KeyedSha256 } from './keyed-sha256';

export interface SignedGetOptions {
  bucket?: string;
  /** Default 1 hour. */
  expiresInSeconds?: number;
  /** Answered as a download of this name. */
  downloadName?: string;
  /** When the URL's validity starts; now unless given. */
  signingDate?: Date;
}

export interface SignedPutOptions {
  bucket?: string;
  bytes: number;
  contentType: string;
  expiresInSeconds: number;
  signingDate?: Date;
}

/** The one-object operations this process sends itself, by the names S3's API gives them. */
export type ObjectOperation = 'GetObject' | 'HeadObject' | 'PutObject' | 'DeleteObject';
export const OPERATION_METHODS: Record<ObjectOperation, string> = { GetObject: 'GET', HeadObject: 'HEAD', PutObject: 'PUT', DeleteObject: 'DELETE' };
// Sent at once; the margin is for a storage server whose clock runs ahead of ours.
const REQUEST_URL_SECONDS = 900;

/**
 * Presigned S3 URLs made with the SDK's own SigV4 signer, without an S3 client: the URLs `getSignedUrl` makes for a
 * path-style endpoint, byte for byte (url-signer.spec.ts holds it to that), at a fraction of its cost and memory.
 * `getSignedUrl` runs a whole client's middleware stack and endpoint rules per URL, which a page of sparks pays once
 * per spark; this signer needs neither, so a process that only hands out URLs need not load the S3 client at all.
 */
/** The path every object URL of `bucket` starts with: path-style, `<the endpoint's own path>/<bucket>/`. */
export const bucketPath = (endpoint: URL, bucket: string) => `${endpoint.pathname.replace(/\/$/, '')}/${bucket}/`;

export class UrlSigner {
  private readonly signer: SignatureV4;
  private readonly endpoint: URL;
  readonly defaultBucket: string;

  constructor(config: StorageConfig) {
    this.endpoint = new URL(config.S3_ENDPOINT);
    this.defaultBucket = config.S3_BUCKET;
    this.signer = new SignatureV4({
      service: 's3',
      region: config.S3_REGION,
      credentials: { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY },
      sha256: KeyedSha256,
      // S3 signs the path as sent, each key segment escaped once.
      uriEscapePath: false,
      applyChecksum: false,
    });
  }

  /** A GET URL valid for `expiresInSeconds`, for a caller whose right to the object was checked. */
  signedGetUrl(key: string, options: SignedGetOptions = {}): Promise<string> {
    const query: Record<string, string> = { 'x-id': 'GetObject' };
    if (options.downloadName) query['response-content-disposition'] = `attachment; filename="${options.downloadName.replace(/"/g, '')}"`;
    return this.sign({ method: 'GET', bucket: options.bucket, key, query, headers: {} }, options.expiresInSeconds ?? 3600, options.signingDate);
  }

  /**
   * A PUT URL for exactly `bytes` bytes of `contentType`: the length and type are signed, so S3 refuses a body of any
   * other size. A browser uploads to it directly (the bucket's CORS rules must allow the web origin's PUT).
   */
  signedPutUrl(key: string, options: SignedPutOptions): Promise<string> {
    const headers = { 'content-length': String(options.bytes), 'content-type': options.contentType };
    return this.sign(
      { method: 'PUT', bucket: options.bucket, key, query: { 'x-id': 'PutObject' }, headers },
      options.expiresInSeconds,
      options.signingDate,
      new Set(Object.keys(headers)),
    );
  }

  /**
   * A URL for one request this process sends itself at once (`ObjectRequests`): the operation named in the query as
   * the SDK names it, and `headers` signed with it.
   */
  signedRequestUrl(operation: ObjectOperation, key: string, options: { bucket?: string; headers?: Record<string, string> } = {}): Promise<string> {
    const headers = options.headers ?? {};
    return this.sign(
      { method: OPERATION_METHODS[operation], bucket: options.bucket, key, query: { 'x-id': operation }, headers },
      REQUEST_URL_SECONDS,
      undefined,
      new Set(Object.keys(headers)),
    );
  }

  private async sign(
    request: { method: string; bucket?: string; key: string; query: Record<string, string>; headers: Record<string, string> },
    expiresIn: number,
    signingDate?: Date,
    signableHeaders?: Set<string>,
  ): Promise<string> {
    const { protocol, hostname, port, host } = this.endpoint;
    const path = `${bucketPath(this.endpoint, request.bucket ?? this.defaultBucket)}${request.key.split('/').map(extendedEncodeURIComponent).join('/')}`;
    const signed = await this.signer.presign(
      {
        method: request.method,
        protocol,
        hostname,
        port: port ? Number(port) : undefined,
        path,
        query: request.query,
        headers: { ...request.headers, host, 'X-Amz-Content-Sha256': 'UNSIGNED-PAYLOAD' },
      },
      { expiresIn, signingDate, signableHeaders, unsignableHeaders: new Set(['content-type']) },
    );
    return `${protocol}//${host}${path}?${buildQueryString(signed.query ?? {})}`;
  }
}
