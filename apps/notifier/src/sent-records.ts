import type { Job } from 'bullmq';
import { z } from 'zod';
import type { SentMailRepository } from './mail/sent-mail.repository';

/**
 * What a delivery notes on its job in Redis once its message left (the SMTP server took the e-mail, the push service
 * the notification), beside the ledger row in PostgreSQL: either record is enough for a later delivery of the job to
 * send nothing.
 */
const sentNoteSchema = z.object({ sentMessageId: z.string().min(1) });

/** Whether an earlier delivery of `job` noted that it sent; if so the ledger, which may have missed it, is recorded now. */
export async function recordedFromNote(sent: SentMailRepository, job: Job, key: string): Promise<boolean> {
  const note = sentNoteSchema.safeParse(job.progress);
  if (!note.success) return false;
  await sent.markSent(key, note.data.sentMessageId);
  return true;
}

/**
 * Writes both records at once. A ledger write that fails (PostgreSQL down) fails the job without marking the row
 * failed: the retry finds the note in Redis and records the ledger without sending again.
 */
export async function recordSent(sent: SentMailRepository, job: Job, key: string, messageId: string): Promise<void> {
  const [, ledger] = await Promise.allSettled([job.updateProgress({ sentMessageId: messageId }), sent.markSent(key, messageId)]);
  if (ledger.status === 'rejected') throw ledger.reason;
}
