import { randomUUID } from 'node:crypto';
import { jobSchemaOf } from '@spark/contracts';
import type { JobRequest } from './job-queues';

/** The payload as its job's schema reads it; throws for a payload no worker could run, before anything is written. */
export function checkedPayload(job: JobRequest): unknown {
  const schema = jobSchemaOf(job.queue, job.name);
  if (!schema) throw new Error(`Unknown job ${job.queue}/${job.name}`);
  return schema.parse(job.data);
}

/**
 * The parameters for inserting outbox rows with `unnest`, so a service can write its state and
 * its jobs in ONE statement (a data-modifying CTE) or one transaction. Each payload is checked here, so the
 * statement fails rather than store a job no worker could run:
 *   INSERT INTO <schema>.outbox (id, queue, job_name, payload)
 *   SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::jsonb[])
 */
export function outboxRows(jobs: readonly JobRequest[]): [string[], string[], string[], string[]] {
  return [jobs.map(() => randomUUID()), jobs.map((job) => job.queue), jobs.map((job) => job.name), jobs.map((job) => JSON.stringify(checkedPayload(job)))];
}

export const outboxInsertSql = (schema: string, firstParam: number) =>
  `INSERT INTO "${schema}"."outbox" (id, queue, job_name, payload)
   SELECT * FROM unnest($${firstParam}::uuid[], $${firstParam + 1}::text[], $${firstParam + 2}::text[], $${firstParam + 3}::jsonb[])`;

/**
 * Deletes a schema's outbox rows whose payload mentions a person (`$1` a user id, `$2` an e-mail address), sent or
 * not: after their account is deleted nobody is left to receive those jobs, and the rows must not outlive them.
 */
export const deleteOutboxRowsAboutSql = (schema: string) =>
  `DELETE FROM "${schema}".outbox WHERE strpos(payload::text, $1) > 0 OR strpos(lower(payload::text), $2) > 0`;
