import type { SigningKeys } from '@spark/config';
import type { OpenedMailJob } from '@spark/contracts';
import { campaignApprovalRefusal } from '@spark/messaging';
import { UnrecoverableError } from 'bullmq';
import { layout } from './layout';
import { refuseUnstated } from './unstated-mail';
import type { OutgoingMail } from './mailer';

/**
 * An admin's campaign e-mail to one investor: their text (opened from its seal), paragraphs kept, HTML escaped. Only
 * the text an admin approved, to a recipient they chose (the gateway's signature); anything else fails for good, unsent.
 */
export function investorEmail(data: OpenedMailJob<'investor-email'>, signingKeys: SigningKeys, now = Date.now()): OutgoingMail {
  refuseUnstated('investor e-mail', campaignApprovalRefusal(signingKeys, data, now));
  const paragraphs = data.body
    .split(/\n{2,}/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean);
  return { to: data.email, subject: data.subject, text: data.body, html: layout(data.subject, paragraphs) };
}

const smtpResponseCode = (error: unknown): number | undefined => {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' ? code : undefined;
};

/**
 * A 5xx answer (e.g. 550 unknown mailbox) will not change on retry: fail the job at once, so the
 * campaign can report that recipient as failed instead of waiting out every retry.
 */
export async function failPermanently(delivery: Promise<void>): Promise<void> {
  try {
    await delivery;
  } catch (error) {
    const code = smtpResponseCode(error);
    if (code !== undefined && code >= 500 && code < 600) {
      throw new UnrecoverableError(`SMTP ${code}: ${error instanceof Error ? error.message : String(error)}`);
    }
    throw error;
  }
}
