import { randomUUID } from 'node:crypto';
import type { JobRequest } from './job-queues';

/**
 * The parameters for inserting outbox rows with `unnest`, so a service can write its state and
 * its jobs in ONE statement (a data-modifying CTE) or one transaction:
 *   INSERT INTO <schema>.outbox (id, queue, job_name, payload)
 *   SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::jsonb[])
 */
export function outboxRows(jobs: readonly JobRequest[]): [string[], string[], string[], string[]] {
  return [
    jobs.map(() => randomUUID()),
    jobs.map((job) => job.queue),
    jobs.map((job) => job.name),
    jobs.map((job) => JSON.stringify(job.data)),
  ];
}

export const outboxInsertSql = (schema: string, firstParam: number) =>
  `INSERT INTO "${schema}"."outbox" (id, queue, job_name, payload)
   SELECT * FROM unnest($${firstParam}::uuid[], $${firstParam + 1}::text[], $${firstParam + 2}::text[], $${firstParam + 3}::jsonb[])`;
