import type { JobRequest } from '@spark/jobs';
import type { DataSource } from 'typeorm';

export interface DeliveryRow {
  id: string;
  email: string;
  status: 'queued' | 'sent' | 'failed';
}

export interface NewDelivery {
  id: string;
  investorId: string;
  email: string;
  job: JobRequest;
}

export class CampaignsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The campaign, one delivery per recipient and one outbox row per delivery, in ONE statement.
   * Each outbox row's id is its delivery's id, so the mail job id names the delivery.
   */
  /**
   * Writes the campaign, its deliveries and their jobs, unless a campaign of that id exists: then nothing, and the
   * answer is the stored one's text, for the caller to compare.
   */
  async insert(
    campaign: { id: string; subject: string; body: string },
    deliveries: readonly NewDelivery[],
  ): Promise<'inserted' | { subject: string; body: string }> {
    const [written]: { inserted: boolean; subject: string; body: string }[] = await this.dataSource.query(
      `WITH campaign AS (
         INSERT INTO investor.campaigns (id, subject, body) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING RETURNING id
       ), deliveries AS (
         INSERT INTO investor.campaign_deliveries (id, campaign_id, investor_id, email)
         SELECT d.id, campaign.id, d.investor_id, d.email
         FROM campaign, unnest($4::uuid[], $5::uuid[], $6::text[]) AS d(id, investor_id, email)
       ), jobs AS (
         INSERT INTO investor.outbox (id, queue, job_name, payload)
         SELECT job.* FROM campaign, unnest($4::uuid[], $7::text[], $8::text[], $9::jsonb[]) AS job
       )
       SELECT true AS inserted, $2 AS subject, $3 AS body FROM campaign
       UNION ALL
       SELECT false, subject, body FROM investor.campaigns WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM campaign)`,
      [
        campaign.id,
        campaign.subject,
        campaign.body,
        deliveries.map((delivery) => delivery.id),
        deliveries.map((delivery) => delivery.investorId),
        deliveries.map((delivery) => delivery.email),
        deliveries.map((delivery) => delivery.job.queue),
        deliveries.map((delivery) => delivery.job.name),
        deliveries.map((delivery) => JSON.stringify(delivery.job.data)),
      ],
    );
    if (written) return written.inserted ? 'inserted' : { subject: written.subject, body: written.body };
    // A send of the same id committed while this statement waited on it: its row is newer than the statement's snapshot.
    const [sent]: { subject: string; body: string }[] = await this.dataSource.query(`SELECT subject, body FROM investor.campaigns WHERE id = $1`, [
      campaign.id,
    ]);
    if (!sent) throw new Error(`campaign ${campaign.id} neither written nor found`);
    return sent;
  }

  async deliveries(campaignId: string): Promise<DeliveryRow[] | undefined> {
    const [campaign]: unknown[] = await this.dataSource.query(`SELECT 1 FROM investor.campaigns WHERE id = $1`, [campaignId]);
    if (!campaign) return undefined;
    return this.dataSource.query(`SELECT id, email, status FROM investor.campaign_deliveries WHERE campaign_id = $1 ORDER BY email`, [campaignId]);
  }

  /** Queued deliveries of the last day, oldest first: what a reconciliation pass looks at. */
  async queuedDeliveryIds(limit: number): Promise<string[]> {
    const rows: { id: string }[] = await this.dataSource.query(
      `SELECT id FROM investor.campaign_deliveries
       WHERE status = 'queued' AND created_at > now() - interval '1 day' ORDER BY created_at LIMIT $1`,
      [limit],
    );
    return rows.map((row) => row.id);
  }

  /** Records a delivered e-mail once, and moves the investor's last_email_sent_at forward with it. */
  async markSent(deliveryId: string, at: Date): Promise<void> {
    await this.dataSource.query(
      `WITH delivered AS (
         UPDATE investor.campaign_deliveries SET status = 'sent', finished_at = $2
         WHERE id = $1 AND status = 'queued' RETURNING investor_id
       )
       UPDATE investor.investors SET last_email_sent_at = GREATEST(last_email_sent_at, $2)
       WHERE id IN (SELECT investor_id FROM delivered)`,
      [deliveryId, at],
    );
  }

  async markFailed(deliveryId: string, at: Date, error: string): Promise<void> {
    await this.dataSource.query(`UPDATE investor.campaign_deliveries SET status = 'failed', finished_at = $2, error = $3 WHERE id = $1 AND status = 'queued'`, [
      deliveryId,
      at,
      error.slice(0, 2000),
    ]);
  }
}
