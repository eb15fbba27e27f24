import { Processor, WorkerHost } from '@nestjs/bullmq';
import type { SigningKeys } from '@spark/config';
import { type JobPayload, type MailApproval, QUEUES } from '@spark/contracts';
import { assertHandlersComplete, type CappedDelays, type JobHandlers, type MailOpener, runJob } from '@spark/jobs';
import type { Logger } from '@spark/logging';
import { runWithCorrelationId } from '@spark/logging';
import type { ServiceBus } from '@spark/messaging';
import type { Job } from 'bullmq';
import {
  accountDeletionConfirm,
  codeSignInLocked,
  dataExportReady,
  ditlReady,
  leadAlert,
  leadAlertDigest,
  leadConfirmation,
  magicLink,
  sparkReminder,
  type TemplateContext,
} from './mail-templates';
import { failPermanently, investorEmail } from './investor-email';
import type { Mailer, OutgoingMail } from './mailer';
import type { SentMailRepository } from './sent-mail.repository';
import type { LeadAlertCap } from './lead-alert-cap';
import { clientRecipient } from '../client-recipients';
import { ensureToday, oncePerDay, SPARK_REMINDER } from '../spark-reminders';
import { recordedFromNote, recordSent } from '../sent-records';

/**
 * The ledger key of an e-mail the gateway approved for its recipient (a visitor's submission, an admin's campaign):
 * once per approval, not per job, since its producer could queue it again under new job ids.
 */
const oncePerApproval = (job: Job, approval: MailApproval) => `${job.queueName}:${job.name}:${approval.signature}`;

export interface MailProcessorDependencies {
  mailer: Mailer;
  sent: SentMailRepository;
  logger: Logger;
  context: TemplateContext;
  /** Opens what the jobs' producers sealed for the notifier (links, codes, tokens). */
  opener: MailOpener;
  /** The mail jobs' signing keys (`SIGNING_KEYS`). */
  signingKeys: SigningKeys;
  /** Holds the team's new-lead alerts to so many an hour, the rest gathered in a digest. */
  cap: LeadAlertCap;
  /** Asks the auth-service whose account a spark reminder or a data export e-mail is for. */
  bus: ServiceBus;
  concurrency: number;
  /** The job lock's lifetime, which is also how often the worker looks for a dead worker's jobs. */
  lockMs: number;
  /** The delays of the mail and push retries (`NOTIFIER_RETRY_FIRST_MS`, `NOTIFIER_RETRY_MAX_MS`). */
  retry: CappedDelays;
}

@Processor(QUEUES.mail)
export class MailProcessor extends WorkerHost {
  private readonly handlers: JobHandlers<'mail'>;

  constructor(private readonly deps: MailProcessorDependencies) {
    super();
    const { opener, context, signingKeys, bus, cap } = deps;
    this.handlers = {
      'lead-confirmation': (data, job) => this.deliver(job, leadConfirmation(data, context, signingKeys), oncePerApproval(job, data.submission)),
      'lead-alert': async (data, job) => {
        // Verified before the decision: an alert the gateway did not sign must neither count against the hour nor be
        // named in its digest.
        const mail = leadAlert(data, context, signingKeys);
        if ((await cap.decide(data)).send === 'alert') await this.deliver(job, mail, oncePerApproval(job, data.submission));
        else this.deps.logger.info({ job: job.name, jobId: job.id }, "lead alert gathered for its hour's digest");
      },
      'lead-alert-digest': (data, job) => this.sendDigest(data, job),
      'magic-link': async (data, job) => this.deliver(job, magicLink(await opener.open('magic-link', data), context)),
      'ditl-ready': (data, job) => this.deliver(job, ditlReady(data, context, signingKeys)),
      'investor-email': async (data, job) =>
        failPermanently(this.deliver(job, investorEmail(await opener.open('investor-email', data), signingKeys), oncePerApproval(job, data.approval))),
      'code-sign-in-locked': (data, job) => this.deliver(job, codeSignInLocked(data, context)),
      'data-export-ready': async (data, job) => {
        await clientRecipient(bus, 'data export e-mail', data);
        await this.deliver(job, dataExportReady(await opener.open('data-export-ready', data), context));
      },
      'account-deletion-confirm': async (data, job) => this.deliver(job, accountDeletionConfirm(await opener.open('account-deletion-confirm', data), context)),
      'spark-reminder': async (data, job) => {
        ensureToday(data);
        const recipient = await clientRecipient(bus, SPARK_REMINDER, data);
        await this.deliver(job, sparkReminder(await opener.open('spark-reminder', data), recipient, context), oncePerDay(job, data.userId, data.localDate));
      },
    };
    assertHandlersComplete(QUEUES.mail, this.handlers);
  }

  onApplicationBootstrap(): void {
    this.worker.concurrency = this.deps.concurrency;
    // Unheard, an error of a worker stopped right after it started (its run then fails on a closed connection) would
    // crash the process.
    this.worker.on('error', (error) => this.deps.logger.warn({ err: error }, 'mail worker error'));
  }

  process(job: Job): Promise<void> {
    return runWithCorrelationId(`job:${job.id ?? 'unknown'}`, () => runJob(QUEUES.mail, this.handlers, job, this.deps.signingKeys));
  }

  /**
   * One e-mail per hour (its ledger key) for the leads past the cap, whose addresses are then forgotten. Leads erased
   * since they were submitted are counted, not named. An hour that counted none has nothing to send.
   */
  private async sendDigest({ windowStart }: JobPayload<'mail', 'lead-alert-digest'>, job: Job): Promise<void> {
    const { cap, context, logger } = this.deps;
    const start = Date.parse(windowStart);
    const { count, named } = await cap.close(start);
    if (count === 0) {
      logger.info({ job: job.name, jobId: job.id, windowStart }, "no leads counted for the hour's digest; nothing to send");
      return;
    }
    const digest = { windowStart: start, count, named, perHour: cap.perHour };
    await this.deliver(job, leadAlertDigest(digest, context), `${job.queueName}:${job.name}:${start}`);
    await cap.forget(start);
  }

  /**
   * Sends at most once per ledger key (the job id unless the e-mail has a better one), whatever the number of
   * deliveries (docs/decisions.md, "Exactly one e-mail per job").
   */
  private async deliver(job: Job, mail: OutgoingMail, key = `${job.queueName}:${job.id}`): Promise<void> {
    if (await recordedFromNote(this.deps.sent, job, key)) {
      this.deps.logger.info({ job: job.name, jobId: job.id }, 'e-mail sent by an earlier delivery; recorded now');
      return;
    }
    const claim = await this.deps.sent.claim(key, job.name, mail.to, { of: mail.to, queuedAt: new Date(job.timestamp) });
    if (claim === 'erased') {
      this.deps.logger.info({ job: job.name, jobId: job.id }, 'e-mail to an account erased since it was queued; not sent');
      return;
    }
    if (claim === 'already-sent') {
      this.deps.logger.info({ job: job.name, jobId: job.id }, 'e-mail already sent; delivery ignored');
      return;
    }
    if (claim === 'in-flight') throw new Error(`e-mail ${key} is being sent by another delivery`);
    let messageId: string;
    try {
      messageId = await this.deps.mailer.send(mail, key);
    } catch (error) {
      await this.deps.sent.markFailed(key, error instanceof Error ? error.message : String(error));
      throw error;
    }
    await recordSent(this.deps.sent, job, key, messageId);
    // Not the address: account erasure reaches the ledger, where the job's key finds the e-mail, but not the logs.
    this.deps.logger.info({ job: job.name, jobId: job.id }, 'e-mail sent');
  }
}
