import { QUEUES } from '@spark/contracts';
import type { JobQueues } from '@spark/jobs';
import { Job } from 'bullmq';

export type MailOutcome = { state: 'sent'; at: Date } | { state: 'failed'; at: Date; error: string } | { state: 'pending' };

/** Reads how a mail job ended from BullMQ, which keeps finished jobs for a day. */
export class MailJobOutcomes {
  constructor(private readonly jobs: JobQueues) {}

  async outcomeOf(jobId: string): Promise<MailOutcome> {
    const job = await Job.fromId(this.jobs.queue(QUEUES.mail), jobId);
    if (!job) return { state: 'pending' };
    // 'failed' is final: a job that will be retried waits in 'delayed' instead.
    const state = await job.getState();
    const at = new Date(job.finishedOn ?? Date.now());
    if (state === 'completed') return { state: 'sent', at };
    if (state === 'failed') return { state: 'failed', at, error: job.failedReason || 'failed' };
    return { state: 'pending' };
  }
}
