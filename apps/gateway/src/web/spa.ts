import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { HttpException } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import { toErrorBody } from '../http/error-body';
import { preferredEncoding, PrerenderedPages } from './prerendered-pages';

// The sign-in landing page: links once carried their token in its query, so no cache keeps the
// page and no Referer names its address.
const isSignInLanding = (url: string) => url.split(/[?#]/)[0] === '/magic-link-auth';

/**
 * Serves the built SPA from the same origin as /api: hashed assets cached for a year and sent
 * precompressed, the prerendered public pages with their HTML already in, and index.html for
 * every other GET outside /api so client-side routes survive a reload.
 */
export async function registerSpa(fastify: FastifyInstance, webDist: string, publicUrl: string): Promise<void> {
  if (!webDist || !existsSync(join(webDist, 'index.html'))) return;
  const prerendered = PrerenderedPages.load(webDist, publicUrl);
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
      void reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : isSignInLanding(reply.request.url) ? 'no-store' : 'no-cache');
    },
  });
  fastify.get('/*', (request, reply) => {
    if (request.url.startsWith('/api/') || request.url === '/api') {
      const body = toErrorBody(new HttpException('Not found', 404), request.id);
      return reply.status(404).send(body);
    }
    void reply.header('cache-control', 'no-cache');
    if (isSignInLanding(request.url)) void reply.header('referrer-policy', 'no-referrer');
    const encoding = preferredEncoding(request.headers['accept-encoding']);
    const page = prerendered.find(request.url, encoding);
    if (!page) return reply.sendFile('index.html');
    void reply.header('vary', 'accept-encoding').type('text/html; charset=utf-8');
    if (encoding !== 'identity') void reply.header('content-encoding', encoding);
    return reply.send(page);
  });
}
