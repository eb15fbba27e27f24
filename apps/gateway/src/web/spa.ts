import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { HttpException } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import { toErrorBody } from '../http/error-body';
import { inlineScriptHashes } from './inline-scripts';
import { preferredEncoding, PrerenderedPages } from './prerendered-pages';

// The API and the operator endpoints (served on the internal port only) answer 404 here, not the SPA.
const NOT_PAGES = /^\/(api|metrics)(\/|\?|$)/;

export interface WebBuild {
  root: string;
  prerendered: PrerenderedPages;
  /** CSP hashes of the inline scripts of the SPA shell and of the prerendered pages. */
  inlineScriptHashes: string[];
}

/** The built SPA at `webDist`, read once at start; undefined when there is none (an API-only gateway). */
export function loadWebBuild(webDist: string, publicUrl: string): WebBuild | undefined {
  if (!webDist || !existsSync(join(webDist, 'index.html'))) return undefined;
  const prerendered = PrerenderedPages.load(webDist, publicUrl);
  const shellHashes = inlineScriptHashes(readFileSync(join(webDist, 'index.html'), 'utf8'));
  return { root: webDist, prerendered, inlineScriptHashes: [...new Set([...shellHashes, ...prerendered.inlineScriptHashes()])] };
}

/**
 * Serves the built SPA from the same origin as /api: hashed assets cached for a year and sent
 * precompressed, the prerendered public pages with their HTML already in, and index.html for
 * every other GET outside /api so client-side routes survive a reload.
 */
export async function registerSpa(fastify: FastifyInstance, build: WebBuild | undefined): Promise<void> {
  if (!build) return;
  const { root: webDist, prerendered } = build;
  await fastify.register(fastifyStatic, {
    root: webDist,
    wildcard: false,
    // `/` is a prerendered page like the others, answered below.
    index: false,
    // The web build writes .br/.gz twins (apps/web/vite.config.ts); sending them cuts the entry chunk
    // from ~320 KB to ~90 KB, which is most of a phone's first paint.
    preCompressed: true,
    // Prerendered pages still hold the origin placeholder; they are only served through `prerendered`.
    allowedPath: (pathName) => !pathName.startsWith('/prerendered/'),
    setHeaders: (reply, path) => {
      const immutable = path.includes(`${join(webDist, 'assets')}`);
      void reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  fastify.get('/*', (request, reply) => {
    if (NOT_PAGES.test(request.url)) {
      const body = toErrorBody(new HttpException('Not found', 404), request.id);
      return reply.status(404).send(body);
    }
    void reply.header('cache-control', 'no-cache');
    const encoding = preferredEncoding(request.headers['accept-encoding']);
    const page = prerendered.find(request.url, encoding);
    if (!page) return reply.sendFile('index.html');
    void reply.header('vary', 'accept-encoding').type('text/html; charset=utf-8');
    if (encoding !== 'identity') void reply.header('content-encoding', encoding);
    return reply.send(page);
  });
}
