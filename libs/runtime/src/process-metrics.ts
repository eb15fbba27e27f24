import type { BusServerObserver } from '@spark/messaging';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { InternalPage } from './health-server';

/** A process's Prometheus registry (Node's defaults labelled with the app) and the page that serves it. */
export function createMetrics(app: string): { registry: Registry; page: InternalPage } {
  const registry = new Registry();
  registry.setDefaultLabels({ app });
  collectDefaultMetrics({ register: registry });
  return { registry, page: async () => ({ contentType: registry.contentType, body: await registry.metrics() }) };
}

/** Seconds; the gateway's wait for a bus request and a service's handling of it share them, so the two line up. */
export const BUS_LATENCY_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** Bus requests a service replica answered, by pattern and outcome, with their handling time. */
export function busServerMetrics(registry: Registry): BusServerObserver {
  const handled = new Histogram({
    name: 'bus_request_duration_seconds',
    help: 'Time to handle a bus request, by pattern and outcome (error: a domain error or a failure)',
    labelNames: ['pattern', 'outcome'],
    buckets: BUS_LATENCY_BUCKETS,
    registers: [registry],
  });
  const expired = new Counter({
    name: 'bus_requests_expired_total',
    help: 'Requests skipped because their caller had given up',
    labelNames: ['pattern'],
    registers: [registry],
  });
  const reclaimed = new Counter({
    name: 'bus_requests_reclaimed_total',
    help: 'Requests taken over from a replica that went silent (redeliveries)',
    registers: [registry],
  });
  return {
    answered: (pattern, seconds, outcome) => handled.observe({ pattern, outcome }, seconds),
    expired: (pattern) => expired.inc({ pattern }),
    reclaimed: (count) => reclaimed.inc(count),
  };
}

/** Anything that runs SQL: the service's DataSource. */
interface SqlSource {
  query(sql: string): Promise<unknown>;
}

/** The age of the oldest outbox row not yet handed to BullMQ (0 when none waits), read at each scrape. */
export function outboxLagMetric(registry: Registry, database: SqlSource, schema: string): void {
  new Gauge({
    name: 'outbox_oldest_pending_seconds',
    help: 'Age of the oldest outbox row not yet dispatched to BullMQ',
    labelNames: ['schema'],
    registers: [registry],
    async collect() {
      const rows = (await database.query(
        `SELECT coalesce(extract(epoch FROM now() - min(created_at)), 0)::float AS age FROM "${schema}"."outbox" WHERE dispatched_at IS NULL`,
      )) as { age: number }[];
      this.set({ schema }, rows[0]?.age ?? 0);
    },
  });
}

/** What the queue gauges need of a BullMQ queue. */
export interface CountedQueue {
  name: string;
  getJobCounts(...states: string[]): Promise<Record<string, number>>;
  /** BullMQ's per-minute counts of finished jobs, newest first (kept when the queue's workers record metrics). */
  getMetrics(type: 'completed' | 'failed', start?: number, end?: number): Promise<{ data: number[] }>;
}

const QUEUE_STATES = ['waiting', 'delayed', 'active', 'failed', 'completed'] as const;

/** Jobs per queue and state, and how many finished in BullMQ's latest recorded minute, read at each scrape. */
export function queueDepthMetric(registry: Registry, queues: CountedQueue[]): void {
  new Gauge({
    name: 'bullmq_jobs_finished_per_minute',
    help: "Jobs of each BullMQ queue that completed or failed in the latest minute BullMQ's worker metrics recorded",
    labelNames: ['queue', 'outcome'],
    registers: [registry],
    async collect() {
      for (const queue of queues) {
        for (const outcome of ['completed', 'failed'] as const) {
          const { data } = await queue.getMetrics(outcome, 0, 0);
          this.set({ queue: queue.name, outcome }, data[0] ?? 0);
        }
      }
    },
  });
  new Gauge({
    name: 'bullmq_jobs',
    help: 'Jobs in each BullMQ queue by state (completed and failed: those still kept)',
    labelNames: ['queue', 'state'],
    registers: [registry],
    async collect() {
      for (const queue of queues) {
        const counts = await queue.getJobCounts(...QUEUE_STATES);
        for (const state of QUEUE_STATES) this.set({ queue: queue.name, state }, counts[state] ?? 0);
      }
    },
  });
}
