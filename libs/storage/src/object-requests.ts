import { Agent as HttpAgent, type IncomingMessage, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { text } from 'node:stream/consumers';
import { setTimeout as sleep } from 'node:timers/promises';
import { DomainError } from '@spark/errors';
import { type ObjectOperation, OPERATION_METHODS, type UrlSigner } from './url-signer';

/** S3 refused a request: `name` is S3's own error code (`NoSuchKey`, `NoSuchBucket`, `AccessDenied`...). */
export class StorageRequestError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    operation: ObjectOperation,
    key: string,
  ) {
    super(`S3 answered ${status} ${code} to ${operation} ${key}`);
    this.name = code;
  }
}

export interface ObjectRequest {
  bucket?: string;
  body?: Buffer;
  /** Signed with the request. */
  headers?: Record<string, string>;
}

const ATTEMPTS = 3;
const RETRY_BASE_MS = 100;
const STORAGE_UNAVAILABLE = 'File storage is not answering right now. Please try again in a moment.';
// S3 answers well within a second; a request it has said nothing to for this long is stalled and is tried again.
export const DEFAULT_ANSWER_TIMEOUT_MS = 30_000;
// Throttling (S3's SlowDown is a 503) and server errors pass; every operation sent here is idempotent.
const isRetriable = (status: number) => status === 429 || status >= 500;
// S3's error bodies are a few hundred bytes of XML naming the error; a HEAD's has no body at all.
const errorCodeOf = (body: string, status: number) => /<Code>([^<]+)<\/Code>/.exec(body)?.[1] ?? (status === 404 ? 'NotFound' : `Http${status}`);

/**
 * One-object requests (GET, HEAD, PUT of a body in memory, DELETE), signed by `UrlSigner` with the SDK's SigV4 and
 * sent with Node's HTTP client: the same requests the SDK's commands send, without the command stack each one runs
 * (middleware, endpoint rules, a signing-key cache keyed by an HMAC). Network errors, a storage that says nothing
 * for `answerTimeoutMs`, throttling and 5xx answers are tried again twice, after about 100 and 200 ms, as the SDK's
 * standard retry mode does; then the request fails as SERVICE_UNAVAILABLE.
 */
export class ObjectRequests {
  private readonly agent: HttpAgent;
  private readonly send: typeof httpRequest;

  constructor(
    private readonly urls: UrlSigner,
    endpoint: URL,
    private readonly answerTimeoutMs = DEFAULT_ANSWER_TIMEOUT_MS,
  ) {
    const https = endpoint.protocol === 'https:';
    this.agent = https ? new HttpsAgent({ keepAlive: true, maxSockets: 50 }) : new HttpAgent({ keepAlive: true, maxSockets: 50 });
    this.send = https ? httpsRequest : httpRequest;
  }

  /**
   * The answer to a request S3 accepted (2xx), its body still to read. A refusal throws `StorageRequestError`; a
   * storage that accepted none of the tries, SERVICE_UNAVAILABLE.
   */
  async request(operation: ObjectOperation, key: string, request: ObjectRequest = {}): Promise<IncomingMessage> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.attempt(operation, key, request);
      } catch (error) {
        // A refusal by S3 is final unless it names a passing condition; a connection that failed is always tried again.
        const retriable = error instanceof StorageRequestError ? isRetriable(error.status) : true;
        if (!retriable) throw error;
        // Not done, and safe to try again later: the caller answers 503, as for any service that is away.
        if (attempt === ATTEMPTS) throw new DomainError('SERVICE_UNAVAILABLE', STORAGE_UNAVAILABLE, { service: 'storage' });
      }
      await sleep(RETRY_BASE_MS * 2 ** (attempt - 1) * (0.5 + Math.random()));
    }
  }

  /** Drops the kept-alive connections. */
  close(): void {
    this.agent.destroy();
  }

  private async attempt(operation: ObjectOperation, key: string, { bucket, body, headers = {} }: ObjectRequest): Promise<IncomingMessage> {
    const signed = { ...headers, ...(body ? { 'content-length': String(body.length) } : {}) };
    const url = await this.urls.signedRequestUrl(operation, key, { bucket, headers: signed });
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      const outgoing = this.send(url, { method: OPERATION_METHODS[operation], headers: signed, agent: this.agent }, (answer) => {
        // Only the wait for an answer is bounded: its body is read at the caller's pace.
        outgoing.setTimeout(0);
        resolve(answer);
      });
      outgoing.setTimeout(this.answerTimeoutMs, () => outgoing.destroy(new Error(`S3 did not answer ${operation} ${key} in ${this.answerTimeoutMs} ms`)));
      outgoing.once('error', reject);
      outgoing.end(body);
    });
    const status = response.statusCode ?? 0;
    if (status >= 200 && status < 300) return response;
    throw new StorageRequestError(errorCodeOf(await text(response), status), status, operation, key);
  }
}
