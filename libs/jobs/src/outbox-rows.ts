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
 * `outboxInsertSql` for jobs that keep one id for good (the ids of `outboxRows` replaced by their own): a row still in
 * the outbox is made pending again and its job added again, which BullMQ ignores while a job of that id is there in any
 * state (waiting, running, delayed for a retry, failed or completed), so only a job Redis lost comes back. A row pruned
 * since is written again.
 */
export const outboxRequeueSql = (schema: string, firstParam: number) =>
  `${outboxInsertSql(schema, firstParam)}
   ON CONFLICT (id) DO UPDATE SET dispatched_at = NULL, confirmed_at = NULL`;

/**
 * Deletes a schema's outbox rows about a person (`$1` a user id, `$2` an e-mail address), sent or not: after their
 * account is deleted nobody is left to receive those jobs, and the rows must not outlive them. A row is about them
 * when a value anywhere in its payload IS their id or address: every payload that names a person names them in a
 * field of its own (`email`, `userId`), beside any link that also carries them. Searching the text instead would also find
 * `ann@example.com` inside `joann@example.com`, and someone else's mail. Payloads are checked by their schema when
 * written, which lower-cases e-mail addresses, as `auth.users` stores them.
 */
export const deleteOutboxRowsAboutSql = (schema: string) =>
  `DELETE FROM "${schema}".outbox
   WHERE jsonb_path_exists(payload, '$.** ? (@ == $id || @ == $email)', jsonb_build_object('id', $1::text, 'email', $2::text))`;

/**
 * `outboxRows` for the jobs of many rows written in one statement, with a fifth array: the id of the row each job
 * belongs to. `outboxInsertForSql` then inserts only the jobs of the rows the statement did write.
 */
export function outboxRowsFor(owners: readonly { id: string; jobs: readonly JobRequest[] }[]): [string[], string[], string[], string[], string[]] {
  const ownerIds = owners.flatMap(({ id, jobs }) => jobs.map(() => id));
  return [...outboxRows(owners.flatMap(({ jobs }) => jobs)), ownerIds];
}

/** Inserts the jobs of `outboxRowsFor` whose row is in `written`, a CTE of the same statement with an `id` column. */
export const outboxInsertForSql = (schema: string, firstParam: number, written: string) =>
  `INSERT INTO "${schema}"."outbox" (id, queue, job_name, payload)
   SELECT job.id, job.queue, job.job_name, job.payload
   FROM unnest($${firstParam}::uuid[], $${firstParam + 1}::text[], $${firstParam + 2}::text[], $${firstParam + 3}::jsonb[], $${firstParam + 4}::uuid[])
     AS job(id, queue, job_name, payload, owner)
   JOIN ${written} ON ${written}.id = job.owner`;
