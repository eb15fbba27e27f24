import { randomUUID } from 'node:crypto';
import { type InvestorCampaign, type PayloadOf, redactAccessCodes } from '@spark/contracts';
import type { MailSealer, OutboxRelay } from '@spark/jobs';
import { DomainError } from '@spark/errors';
import type { InvestorsRepository } from '../investors/investors.repository';
import type { CampaignsRepository, DeliveryRow } from './campaigns.repository';
import type { MailJobOutcomes } from './mail-job-outcomes';

/**
 * Investor e-mail campaigns: one queued mail job per recipient (written with the campaign in one
 * statement), outcomes read back per job, so the admin learns exactly who did not get it.
 */
export class CampaignsService {
  constructor(
    private readonly campaigns: CampaignsRepository,
    private readonly investors: InvestorsRepository,
    private readonly outcomes: MailJobOutcomes,
    private readonly outbox: Pick<OutboxRelay, 'kick'>,
    private readonly sealer: Pick<MailSealer, 'seal'>,
  ) {}

  /**
   * Answers the campaign as queued once it is written: a command commits with its answer, so waiting here for the
   * e-mails would hold the campaign back from the relay and leave a replica killed after the commit too little of the
   * caller's time to be taken over. The admin's screen follows it with `get`.
   */
  async send(request: PayloadOf<'investor.send-email'>): Promise<InvestorCampaign> {
    const { approvedAt, signatures } = request.approval;
    // Each e-mail carries the admin's approval of its text for its recipient, which the notifier checks.
    const recipients = (await this.investors.findByEmails([...new Set(request.emails)])).flatMap((investor) => {
      const signature = Object.hasOwn(signatures, investor.email) ? signatures[investor.email] : undefined;
      return signature ? [{ investor, approval: { approvedAt, signature } }] : [];
    });
    if (recipients.length === 0) throw new DomainError('NOT_FOUND', 'None of these e-mails belongs to an investor.');
    const campaignId = request.campaignId ?? randomUUID();
    // The text travels sealed for the notifier, and is kept without its access codes (the admin's "Send Code" puts the
    // recipient's in it): with the address, a code opens the deck, and codes are otherwise stored only as hashes.
    const text = { subject: request.subject, body: request.body };
    const deliveries = await Promise.all(
      recipients.map(async ({ investor, approval }) => {
        const id = randomUUID();
        const data = { deliveryId: id, campaignId, email: investor.email, approval, sealed: await this.sealer.seal('investor-email', investor.email, text) };
        return { id, investorId: investor.id, email: investor.email, job: { queue: 'mail', name: 'investor-email', data } as const };
      }),
    );
    const kept = { subject: redactAccessCodes(request.subject), body: redactAccessCodes(request.body) };
    const written = await this.campaigns.insert({ id: campaignId, ...kept }, deliveries);
    if (written !== 'inserted') {
      // Sent before: the same campaign again is its outcome so far; another text under its id is not sent at all.
      if (written.subject !== kept.subject || written.body !== kept.body) {
        throw new DomainError('CONFLICT', 'This campaign was already sent with another subject or message.');
      }
      return this.get({ campaignId });
    }
    this.outbox.kick();
    return this.summarise(
      campaignId,
      deliveries.map(({ id, email }) => ({ id, email, status: 'queued' })),
    );
  }

  async get(request: PayloadOf<'investor.get-campaign'>): Promise<InvestorCampaign> {
    return this.summarise(request.campaignId, await this.reconcile(request.campaignId));
  }

  /** Settles queued deliveries whose jobs have finished, e.g. ones nobody polled for. */
  async reconcileQueued(limit = 500): Promise<void> {
    for (const id of await this.campaigns.queuedDeliveryIds(limit)) await this.settle(id);
  }

  private async reconcile(campaignId: string): Promise<DeliveryRow[]> {
    const deliveries = await this.campaigns.deliveries(campaignId);
    if (!deliveries) throw new DomainError('NOT_FOUND', 'No such campaign.');
    const queued = deliveries.filter((delivery) => delivery.status === 'queued');
    if (queued.length === 0) return deliveries;
    await Promise.all(queued.map((delivery) => this.settle(delivery.id)));
    return (await this.campaigns.deliveries(campaignId)) ?? [];
  }

  private async settle(deliveryId: string): Promise<void> {
    const outcome = await this.outcomes.outcomeOf(deliveryId);
    if (outcome.state === 'sent') await this.campaigns.markSent(deliveryId, outcome.at);
    if (outcome.state === 'failed') await this.campaigns.markFailed(deliveryId, outcome.at, outcome.error);
  }

  private summarise(id: string, deliveries: readonly DeliveryRow[]): InvestorCampaign {
    const count = (status: DeliveryRow['status']) => deliveries.filter((delivery) => delivery.status === status).length;
    return {
      id,
      total: deliveries.length,
      sent: count('sent'),
      failed: count('failed'),
      pending: count('queued'),
      failedEmails: deliveries.filter((delivery) => delivery.status === 'failed').map((delivery) => delivery.email),
    };
  }
}
