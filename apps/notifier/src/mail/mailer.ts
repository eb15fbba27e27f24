import nodemailer, { type Transporter } from 'nodemailer';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** The only place that speaks SMTP. */
export class Mailer {
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport(smtpUrl);
  }

  /** Resolves with the message id; rejects when the server refuses the message or a recipient. */
  async send(mail: OutgoingMail): Promise<string> {
    const info = await this.transport.sendMail({ from: this.from, ...mail });
    return info.messageId;
  }

  close(): void {
    this.transport.close();
  }
}
