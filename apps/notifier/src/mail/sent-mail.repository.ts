import type { DataSource } from 'typeorm';
import { addressHashSql } from './sent-mail-erasure';

export type Claim = 'claimed' | 'already-sent' | 'in-flight';

/**
 * The notifier's ledger of what it sent: a job delivered twice (a BullMQ retry after a crash, or
 * the outbox re-adding a job Redis lost) finds its e-mail already sent and sends nothing.
 */
export class SentMailRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Takes the right to send; a 'sending' claim older than a minute is treated as a dead worker's. */
  async claim(key: string, jobName: string, recipient: string): Promise<Claim> {
    const claimed: unknown[] = await this.dataSource.query(
      `INSERT INTO notifier.sent_emails (idempotency_key, job_name, recipient, status)
       VALUES ($1, $2, $3, 'sending')
       ON CONFLICT (idempotency_key) DO UPDATE SET status = 'sending', updated_at = now(), error = NULL
       WHERE sent_emails.status = 'failed'
          OR (sent_emails.status = 'sending' AND sent_emails.updated_at < now() - interval '60 seconds')
       RETURNING 1`,
      [key, jobName, recipient],
    );
    if (claimed.length > 0) return 'claimed';
    const [row]: { status: string }[] = await this.dataSource.query(`SELECT status FROM notifier.sent_emails WHERE idempotency_key = $1`, [key]);
    return row?.status === 'sent' ? 'already-sent' : 'in-flight';
  }

  /** Whether the account of `recipient` (an address, or the account id a push names) was erased after `queuedAt`, when a message to it was queued. */
  async erasedSince(recipient: string, queuedAt: Date): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `SELECT 1 FROM notifier.erased_recipients WHERE address_hash = ${addressHashSql('$1')} AND erased_at >= $2`,
      [recipient, queuedAt],
    );
    return rows.length > 0;
  }

  async markSent(key: string, messageId: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE notifier.sent_emails SET status = 'sent', message_id = $2, sent_at = now(), updated_at = now() WHERE idempotency_key = $1`,
      [key, messageId],
    );
  }

  async markFailed(key: string, error: string): Promise<void> {
    await this.dataSource.query(`UPDATE notifier.sent_emails SET status = 'failed', error = $2, updated_at = now() WHERE idempotency_key = $1`, [
      key,
      error.slice(0, 2000),
    ]);
  }
}
