import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { INCOMING_SPARK_PREFIX } from '@spark/media';
import { bucketPath } from '@spark/storage';
import helmet from 'helmet';
import { pathOf, SECRET_BEARING_PAGES } from './secret-bearing-pages';

export interface SecurityHeaderOptions {
  publicUrl: string;
  /**
   * Where signed S3 URLs point: photos, videos and the deck preview load from the files bucket, Developer's Log images
   * from the log bucket, and spark files are uploaded to the files bucket's `incoming/`.
   */
  storage: { endpoint: string; bucket: string; logBucket: string };
  /** `'sha256-…'` sources of the inline scripts our own pages carry. */
  inlineScriptHashes: string[];
}

/**
 * The security headers of every answer, pages and API alike. Scripts run only from our origin (plus
 * the hashed inline scripts of our pages); styles may be inline because libraries we use insert
 * `<style>` elements at run time, one with content computed at run time, and the DITL presentation
 * (a sandboxed `srcdoc` frame, which inherits this policy) carries its own stylesheet.
 *
 * helmet makes the headers once, at start: with this configuration (no nonce, nothing read from the request) they
 * are the same for every answer, and helmet's middleware would otherwise build the policy's text and set each header
 * on Node's response, with its checks, on every request. The Fastify plugin even builds the middleware anew each time.
 */
export function registerSecurityHeaders(fastify: FastifyInstance, options: SecurityHeaderOptions): void {
  const https = new URL(options.publicUrl).protocol === 'https:';
  const { files, logImages, uploads } = storageSources(options.storage);
  const headers = headersSetBy(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", ...options.inlineScriptHashes],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:', files, logImages],
          mediaSrc: ["'self'", 'blob:', files],
          frameSrc: ["'self'", files],
          // Spark files are uploaded from the browser straight to storage, with a signed URL the gateway grants.
          connectSrc: ["'self'", uploads],
          workerSrc: ["'self'"],
          manifestSrc: ["'self'"],
          objectSrc: ["'none'"],
          baseUri: ["'none'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
          ...(https ? { upgradeInsecureRequests: [] } : {}),
        },
      },
      strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      xFrameOptions: { action: 'deny' },
    }),
  );
  const apiHeaders = { ...headers, 'cache-control': 'no-store' };
  fastify.addHook('onRequest', (request, reply, done) => {
    // API answers are a person's data (a session, notes, signed file links): no disk cache keeps them after sign-out.
    // A route that serves something public sets its own.
    void reply.headers(request.url.startsWith('/api/') ? apiHeaders : headers);
    done();
  });
  // A page with a sign-in token in its address is never sent on as a Referer, never stored by a cache.
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (SECRET_BEARING_PAGES.has(pathOf(request.url))) void reply.header('referrer-policy', 'no-referrer').header('cache-control', 'no-store');
    done(null, payload);
  });
}

/**
 * Our buckets as CSP sources. Signed URLs are path-style (`endpoint/bucket/key`), so the endpoint's origin alone would
 * admit every bucket it serves, anyone's: somewhere an injected script could send data or load a page from. A source
 * ending in `/` admits the paths under it.
 */
function storageSources({ endpoint, bucket, logBucket }: SecurityHeaderOptions['storage']) {
  const url = new URL(endpoint);
  const files = `${url.origin}${bucketPath(url, bucket)}`;
  return { files, logImages: `${url.origin}${bucketPath(url, logBucket)}`, uploads: `${files}${INCOMING_SPARK_PREFIX}` };
}

type Middleware = (request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void) => void;

/** The headers `middleware` sets on an answer, read by running it once on a response that only records them. */
function headersSetBy(middleware: Middleware): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string | number) => (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => delete headers[name.toLowerCase()],
  };
  let finished = false;
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, (error) => {
    if (error) throw error;
    finished = true;
  });
  // Headers set later, asynchronously, would be missing from every answer.
  if (!finished) throw new Error('The security headers middleware did not finish at once');
  return headers;
}
