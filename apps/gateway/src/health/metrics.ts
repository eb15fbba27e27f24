import { createMetrics, type InternalPage } from '@spark/runtime';
import type { FastifyInstance } from 'fastify';
import { Histogram } from 'prom-client';

/** Prometheus metrics, process defaults plus request durations by route and status, for the internal port. */
export function collectMetrics(fastify: FastifyInstance): InternalPage {
  const { registry, page } = createMetrics('gateway');
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method, route and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    duration.observe(
      { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    done();
  });
  return page;
}
