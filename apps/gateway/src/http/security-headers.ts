import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import { pathOf, SECRET_BEARING_PAGES } from './secret-bearing-pages';

export interface SecurityHeaderOptions {
  publicUrl: string;
  /** Where signed S3 URLs point: photos, videos, Developer's Log images and the deck preview load from there. */
  s3Endpoint: string;
  /** `'sha256-…'` sources of the inline scripts our own pages carry. */
  inlineScriptHashes: string[];
}

/**
 * The security headers of every answer, pages and API alike. Scripts run only from our origin (plus
 * the hashed inline scripts of our pages); styles may be inline because libraries we use insert
 * `<style>` elements at run time, one with content computed at run time, and the DITL presentation
 * (a sandboxed `srcdoc` frame, which inherits this policy) carries its own stylesheet.
 *
 * helmet's middleware is built once here: the Fastify plugin builds it anew, parsing the policy, on every request.
 */
export function registerSecurityHeaders(fastify: FastifyInstance, options: SecurityHeaderOptions): void {
  const https = new URL(options.publicUrl).protocol === 'https:';
  const storage = new URL(options.s3Endpoint).origin;
  const applyHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...options.inlineScriptHashes],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', storage],
        mediaSrc: ["'self'", 'blob:', storage],
        frameSrc: ["'self'", storage],
        // Spark files are uploaded from the browser straight to storage, with a signed URL the gateway grants.
        connectSrc: ["'self'", storage],
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
  });
  fastify.addHook('onRequest', (request, reply, done) => applyHeaders(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined)));
  // A page with a sign-in token in its address is never sent on as a Referer, never stored by a cache.
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (SECRET_BEARING_PAGES.has(pathOf(request.url))) void reply.header('referrer-policy', 'no-referrer').header('cache-control', 'no-store');
    done(null, payload);
  });
}
