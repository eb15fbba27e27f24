import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { toErrorBody } from '../http/error-body';
import { HttpException } from '@nestjs/common';

/**
 * Serves the built SPA from the same origin as /api: hashed assets cached for a year and sent
 * precompressed, every other GET outside /api answered with index.html so client-side routes
 * survive a reload.
 */
export async function registerSpa(fastify: FastifyInstance, webDist: string): Promise<void> {
  if (!webDist || !existsSync(join(webDist, 'index.html'))) return;
  await fastify.register(fastifyStatic, {
    root: webDist,
    wildcard: false,
    // The web build writes .br/.gz twins (apps/web/vite.config.ts); sending them cuts the entry chunk
    // from ~320 KB to ~90 KB, which is most of a phone's first paint.
    preCompressed: true,
    setHeaders: (reply, path) => {
      const immutable = path.includes(`${join(webDist, 'assets')}`);
      void reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  fastify.get('/*', (request, reply) => {
    if (request.url.startsWith('/api/') || request.url === '/api') {
      const body = toErrorBody(new HttpException('Not found', 404), request.id);
      return reply.status(404).send(body);
    }
    void reply.header('cache-control', 'no-cache');
    return reply.sendFile('index.html');
  });
}
