import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { SigningKeys } from '@spark/config';
import type { ExportedLead, PayloadOf } from '@spark/contracts';
import { ensureExportGranted } from '@spark/messaging';
import type { LeadsRepository } from './leads.repository';
import { toLead } from './leads.service';

/**
 * The client's lead, for the progress service's data export: only with the gateway's grant, and only the lead under
 * the address the grant names, matched as the erasure of the client's lead matches it. The challenge token is a
 * credential, not the client's words, and stays out.
 */
export class LeadExporter {
  constructor(
    private readonly leads: LeadsRepository,
    /** The gateway's key for this service, which signs the grants of data exports. */
    private readonly signingKeys: SigningKeys,
  ) {}

  async exportLead(request: PayloadOf<'leads.export-lead'>): Promise<ExportedLead> {
    ensureExportGranted(this.signingKeys, 'leads', request);
    const row = await this.leads.findByEmail(request.grant.email);
    return row ? toLead(row) : null;
  }
}

@Controller()
export class LeadExportHandler {
  constructor(@Inject(LeadExporter) private readonly exporter: LeadExporter) {}

  @MessagePattern('leads.export-lead')
  exportLead(@Payload() request: PayloadOf<'leads.export-lead'>) {
    return this.exporter.exportLead(request);
  }
}
