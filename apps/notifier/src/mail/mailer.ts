import { createHash } from 'node:crypto';
import nodemailer, { type Transporter } from 'nodemailer';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** One-click unsubscribe (RFC 8058): mail clients show an Unsubscribe button that POSTs to this address. */
  unsubscribeUrl?: string;
}

/**
 * Bounds on one SMTP conversation. Together (≈ 50 s at worst) they stay under the ledger's 60 s sending claim
 * (`SentMailRepository.claim`), so a live delivery never loses its claim to a second one.
 */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/** The only place that speaks SMTP. */
export class Mailer {
  private readonly transport: Transporter;
  private readonly domain: string;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport({ url: smtpUrl, ...SMTP_TIMEOUTS });
    this.domain = /@([^>\s]+)/.exec(from)?.[1] ?? 'spark.local';
  }

  /**
   * Resolves with the message id; rejects when the server refuses the message or a recipient. The id follows
   * from `idempotencyKey`, so the one re-send SMTP cannot rule out (a crash after the server took the message,
   * before its answer arrived) reaches the recipient as the same message, which mail systems show once.
   */
  async send(mail: OutgoingMail, idempotencyKey: string): Promise<string> {
    const messageId = `<${createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 32)}@${this.domain}>`;
    const { unsubscribeUrl, ...content } = mail;
    const unsubscribe = unsubscribeUrl ? { list: { unsubscribe: unsubscribeUrl }, headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } } : {};
    const info = await this.transport.sendMail({ from: this.from, messageId, ...content, ...unsubscribe });
    return info.messageId;
  }

  close(): void {
    this.transport.close();
  }
}
