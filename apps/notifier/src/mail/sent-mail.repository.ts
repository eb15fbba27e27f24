import type { DataSource } from 'typeorm';
import { addressHashSql, ERASED_RECIPIENT } from './sent-mail-erasure';

export type Claim = 'claimed' | 'already-sent' | 'in-flight' | 'erased';

/** Whose erasure stops a message: the account of `of` (an address, or the account id a push names), erased since `queuedAt`. */
export interface ErasureCheck {
  of: string;
  queuedAt: Date;
}

/** Whether the account of the address `of` (an SQL expression) was erased since `queuedAt`, as a condition. */
export const erasedSinceSql = (of: string, queuedAt: string) =>
  `EXISTS (SELECT 1 FROM notifier.erased_recipients WHERE address_hash = ${addressHashSql(of)} AND erased_at >= ${queuedAt})`;

/**
 * The notifier's ledger of what it sent: a job delivered twice (a BullMQ retry after a crash, or
 * the outbox re-adding a job Redis lost) finds its e-mail already sent and sends nothing.
 */
export class SentMailRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Takes the right to send, unless the recipient's account was erased since the message was queued; a 'sending'
   * claim older than a minute is treated as a dead worker's. The check is made by the statement that writes: an
   * erasure holds the ledger locked until it commits (`sentMailEraser`), so the claim either committed before it, and
   * its row is anonymised, or sees its note and writes nothing.
   */
  async claim(key: string, jobName: string, recipient: string, erased: ErasureCheck): Promise<Claim> {
    const claimed: unknown[] = await this.dataSource.query(
      `INSERT INTO notifier.sent_emails (idempotency_key, job_name, recipient, status)
       SELECT $1::text, $2::text, $3::text, 'sending' WHERE NOT ${erasedSinceSql('$4::text', '$5::timestamptz')}
       ON CONFLICT (idempotency_key) DO UPDATE SET status = 'sending', updated_at = now(), error = NULL
       WHERE sent_emails.status = 'failed'
          OR (sent_emails.status = 'sending' AND sent_emails.updated_at < now() - interval '60 seconds')
       RETURNING 1`,
      [key, jobName, recipient, erased.of, erased.queuedAt],
    );
    if (claimed.length > 0) return 'claimed';
    const [row]: { status: string | null; erased: boolean }[] = await this.dataSource.query(
      `SELECT (SELECT status FROM notifier.sent_emails WHERE idempotency_key = $1) AS status, ${erasedSinceSql('$2::text', '$3::timestamptz')} AS erased`,
      [key, erased.of, erased.queuedAt],
    );
    if (row?.status === 'sent') return 'already-sent';
    return row?.erased ? 'erased' : 'in-flight';
  }

  async markSent(key: string, messageId: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE notifier.sent_emails SET status = 'sent', message_id = $2, sent_at = now(), updated_at = now() WHERE idempotency_key = $1`,
      [key, messageId],
    );
  }

  /**
   * The error can quote the address, so a row the erasure anonymised (while this send was under way) keeps none. The
   * row's own recipient decides, read by this statement after any erasure of it committed.
   */
  async markFailed(key: string, error: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE notifier.sent_emails SET status = 'failed', error = CASE WHEN recipient = $3 THEN NULL ELSE $2 END, updated_at = now()
       WHERE idempotency_key = $1`,
      [key, error.slice(0, 2000), ERASED_RECIPIENT],
    );
  }
}
