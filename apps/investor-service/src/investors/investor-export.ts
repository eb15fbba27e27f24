import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { SigningKeys } from '@spark/config';
import { EXPORTED_DELIVERIES_MAX, type ExportedInvestor, type PayloadOf } from '@spark/contracts';
import { ensureExportGranted } from '@spark/messaging';
import type { DataSource } from 'typeorm';
import type { InvestorsRepository } from './investors.repository';

const iso = (value: Date | null) => value?.toISOString() ?? null;

/**
 * The client's /donate entry (or the one an admin added), for the progress service's data export: only with the
 * gateway's grant, and only the entry under the address the grant names, matched as the erasure matches it. The deck
 * code is stored only as its hash, so the archive says when one was issued and used, never the code.
 */
export class InvestorExporter {
  constructor(
    private readonly dataSource: DataSource,
    private readonly investors: InvestorsRepository,
    /** The gateway's key for this service, which signs the grants of data exports. */
    private readonly signingKeys: SigningKeys,
  ) {}

  async exportInvestor(request: PayloadOf<'investor.export-investor'>): Promise<ExportedInvestor> {
    ensureExportGranted(this.signingKeys, 'investor', request);
    const investor = await this.investors.findByEmail(request.grant.email);
    if (!investor) return null;
    // Bounded so one answer stays one bus message's size, however many campaigns were sent.
    const deliveries = (await this.dataSource.query(
      `SELECT c.subject, d.status, d.created_at, d.finished_at
         FROM investor.campaign_deliveries d JOIN investor.campaigns c ON c.id = d.campaign_id
        WHERE d.investor_id = $1 OR d.email = $2
        ORDER BY d.created_at, d.id LIMIT $3`,
      [investor.id, investor.email, EXPORTED_DELIVERIES_MAX],
    )) as { subject: string; status: string; created_at: Date; finished_at: Date | null }[];
    return {
      email: investor.email,
      interest: investor.interest,
      createdAt: investor.created_at.toISOString(),
      lastEmailSentAt: iso(investor.last_email_sent_at),
      deckCode:
        investor.code_issued_at && investor.code_expires_at
          ? {
              issuedAt: investor.code_issued_at.toISOString(),
              expiresAt: investor.code_expires_at.toISOString(),
              lastUsedAt: iso(investor.accessed_at),
              uses: investor.access_count ?? 0,
            }
          : null,
      campaignDeliveries: deliveries.map((delivery) => ({
        subject: delivery.subject,
        status: delivery.status,
        queuedAt: delivery.created_at.toISOString(),
        finishedAt: iso(delivery.finished_at),
      })),
    };
  }
}

@Controller()
export class InvestorExportHandler {
  constructor(@Inject(InvestorExporter) private readonly exporter: InvestorExporter) {}

  @MessagePattern('investor.export-investor')
  exportInvestor(@Payload() request: PayloadOf<'investor.export-investor'>) {
    return this.exporter.exportInvestor(request);
  }
}
