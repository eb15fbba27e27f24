import { createHmac, type KeyObject, timingSafeEqual } from 'node:crypto';
import type { SigningKeys } from '@spark/config';
import { jobProducerOf, type QueueName, SCHEDULED, signingKeyName } from '@spark/contracts';
import { type Job, UnrecoverableError } from 'bullmq';
import type { JobRequest } from './job-queues';

const SIGNATURE_FIELD = 'signature';

// HMAC-SHA256 rather than a public-key signature: each key is shared by one producer and one queue's consumer only,
// and the lead path signs two e-mails per lead (the comparison: docs/decisions.md).
const signatureOf = (key: KeyObject, queue: QueueName, name: string, jobId: string, payloadJson: string) =>
  createHmac('sha256', key).update(`${queue}\n${name}\n${jobId}\n`).update(payloadJson).digest();

/**
 * The job's data as its producer adds it: its payload with a signature of the queue, the job's name and id, and the
 * payload as BullMQ will store it. A copy under another job id, queue or name does not verify, nor does a payload
 * changed in Redis. Jobs that BullMQ's scheduler adds are left as they are.
 */
export function signedJobData(keys: SigningKeys, job: JobRequest, jobId: string): unknown {
  const producer = jobProducerOf(job.queue, job.name);
  if (producer === undefined || producer === SCHEDULED) return job.data;
  const [key] = keys.get(signingKeyName({ kind: 'job', queue: job.queue, producer })) ?? [];
  if (!key) throw new Error(`No key to sign ${job.queue}/${job.name} as ${producer} (SIGNING_KEYS)`);
  return { ...job.data, [SIGNATURE_FIELD]: signatureOf(key, job.queue, job.name, jobId, JSON.stringify(job.data)).toString('base64url') };
}

/**
 * The payload of a job that its producer signed, for its schema to judge. Anything else fails for good: whoever can
 * add to a queue can read it, but only the producer and this worker hold the key, and a retry would not sign it.
 */
export function verifiedJobData(keys: SigningKeys, queue: QueueName, job: Job): unknown {
  const producer = jobProducerOf(queue, job.name);
  if (producer === undefined || producer === SCHEDULED) return job.data;
  const { [SIGNATURE_FIELD]: signature, ...payload } = (typeof job.data === 'object' && job.data !== null ? job.data : {}) as Record<string, unknown>;
  const given = Buffer.from(typeof signature === 'string' ? signature : '', 'base64url');
  const payloadJson = JSON.stringify(payload);
  const signed = (keys.get(signingKeyName({ kind: 'job', queue, producer })) ?? []).some((key) => {
    const expected = signatureOf(key, queue, job.name, job.id ?? '', payloadJson);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!signed) throw new UnrecoverableError(`${queue}/${job.name}: not signed by ${producer}`);
  return payload;
}
