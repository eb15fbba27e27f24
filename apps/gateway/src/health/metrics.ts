import type { BusClientObserver } from '@spark/messaging';
import { BUS_LATENCY_BUCKETS, createMetrics, type InternalPage } from '@spark/runtime';
import type { FastifyInstance } from 'fastify';
import { Counter, Histogram, type Registry } from 'prom-client';

/** The gateway's Prometheus registry: process defaults, and what the bus client reports (latency, requests not answered in time). */
export function gatewayMetrics(): { registry: Registry; page: InternalPage; busClient: BusClientObserver } {
  const { registry, page } = createMetrics('gateway');
  const timeouts = new Counter({
    name: 'bus_client_timeouts_total',
    help: 'Requests the gateway sent on the bus that got no answer before their deadline (answered 503), by pattern',
    labelNames: ['pattern'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'bus_client_request_duration_seconds',
    help: 'Time from sending a request on the bus to its answer, as the gateway waited for it, by pattern and outcome',
    labelNames: ['pattern', 'outcome'],
    buckets: BUS_LATENCY_BUCKETS,
    registers: [registry],
  });
  const busClient: BusClientObserver = {
    answered: (pattern, outcome, seconds) => latency.observe({ pattern, outcome }, seconds),
    timedOut: (pattern) => timeouts.inc({ pattern }),
  };
  return { registry, page, busClient };
}

/** Request durations by route and status. */
export function observeHttp(fastify: FastifyInstance, registry: Registry): void {
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method, route and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    duration.observe({ method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    done();
  });
}
