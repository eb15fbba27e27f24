import { isPairSignature, pairSignature, type SigningKeys } from '@spark/config';
import { jobProducerOf, type QueueName, SCHEDULED, signingKeyName } from '@spark/contracts';
import { type Job, UnrecoverableError } from 'bullmq';
import type { JobRequest } from './job-queues';

const SIGNATURE_FIELD = 'signature';

const headerOf = (queue: QueueName, name: string, jobId: string) => `${queue}\n${name}\n${jobId}\n`;

/**
 * The job's data as its producer adds it: its payload with a signature of the queue, the job's name and id, and the
 * payload as BullMQ will store it. A copy under another job id, queue or name does not verify, nor does a payload
 * changed in Redis. Jobs that BullMQ's scheduler adds are left as they are.
 */
export function signedJobData(keys: SigningKeys, job: JobRequest, jobId: string): unknown {
  const producer = jobProducerOf(job.queue, job.name);
  if (producer === undefined || producer === SCHEDULED) return job.data;
  const pairName = signingKeyName({ kind: 'job', queue: job.queue, producer });
  const signature = pairSignature(keys, pairName, headerOf(job.queue, job.name, jobId), JSON.stringify(job.data));
  if (!signature) throw new Error(`No key to sign ${job.queue}/${job.name} as ${producer} (SIGNING_KEYS)`);
  return { ...job.data, [SIGNATURE_FIELD]: signature };
}

/**
 * The payload of a job that its producer signed, for its schema to judge. Anything else fails for good: whoever can
 * add to a queue can read it, but only the producer and this worker hold the key, and a retry would not sign it.
 */
export function verifiedJobData(keys: SigningKeys, queue: QueueName, job: Job): unknown {
  const producer = jobProducerOf(queue, job.name);
  if (producer === undefined || producer === SCHEDULED) return job.data;
  const { [SIGNATURE_FIELD]: signature, ...payload } = (typeof job.data === 'object' && job.data !== null ? job.data : {}) as Record<string, unknown>;
  const pairName = signingKeyName({ kind: 'job', queue, producer });
  const signed = typeof signature === 'string' && isPairSignature(keys, pairName, headerOf(queue, job.name, job.id ?? ''), JSON.stringify(payload), signature);
  if (!signed) throw new UnrecoverableError(`${queue}/${job.name}: not signed by ${producer}`);
  return payload;
}
