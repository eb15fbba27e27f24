import { Processor, WorkerHost } from '@nestjs/bullmq';
import { QUEUES } from '@spark/contracts';
import { assertHandlersComplete, type JobHandlers, runJob } from '@spark/jobs';
import type { Logger } from '@spark/logging';
import { runWithCorrelationId } from '@spark/logging';
import type { Job } from 'bullmq';
import { codeSignInLocked, ditlReady, leadAlert, leadConfirmation, magicLink, type TemplateContext } from './mail-templates';
import { failPermanently, investorEmail } from './investor-email';
import type { Mailer, OutgoingMail } from './mailer';
import type { SentMailRepository } from './sent-mail.repository';

export interface MailProcessorDependencies {
  mailer: Mailer;
  sent: SentMailRepository;
  logger: Logger;
  context: TemplateContext;
  concurrency: number;
}

@Processor(QUEUES.mail)
export class MailProcessor extends WorkerHost {
  private readonly handlers: JobHandlers<'mail'>;

  constructor(private readonly deps: MailProcessorDependencies) {
    super();
    this.handlers = {
      'lead-confirmation': (data, job) => this.deliver(job, leadConfirmation(data, deps.context)),
      'lead-alert': (data, job) => this.deliver(job, leadAlert(data, deps.context)),
      'magic-link': (data, job) => this.deliver(job, magicLink(data)),
      'ditl-ready': (data, job) => this.deliver(job, ditlReady(data, deps.context)),
      'investor-email': (data, job) => failPermanently(this.deliver(job, investorEmail(data))),
      'code-sign-in-locked': (data, job) => this.deliver(job, codeSignInLocked(data, deps.context)),
    };
    assertHandlersComplete(QUEUES.mail, this.handlers);
  }

  onApplicationBootstrap(): void {
    this.worker.concurrency = this.deps.concurrency;
  }

  process(job: Job): Promise<void> {
    return runWithCorrelationId(`job:${job.id ?? 'unknown'}`, () => runJob(QUEUES.mail, this.handlers, job));
  }

  /** Sends at most once per job id, whatever the number of deliveries. */
  private async deliver(job: Job, mail: OutgoingMail): Promise<void> {
    const key = `${job.queueName}:${job.id}`;
    const claim = await this.deps.sent.claim(key, job.name, mail.to);
    if (claim === 'already-sent') {
      this.deps.logger.info({ job: job.name, jobId: job.id }, 'e-mail already sent; delivery ignored');
      return;
    }
    if (claim === 'in-flight') throw new Error(`e-mail ${key} is being sent by another delivery`);
    try {
      const messageId = await this.deps.mailer.send(mail);
      await this.deps.sent.markSent(key, messageId);
      this.deps.logger.info({ job: job.name, jobId: job.id, to: mail.to }, 'e-mail sent');
    } catch (error) {
      await this.deps.sent.markFailed(key, error instanceof Error ? error.message : String(error));
      throw error;
    }
  }
}
