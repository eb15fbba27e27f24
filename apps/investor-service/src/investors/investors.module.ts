import { type DynamicModule, Module } from '@nestjs/common';
import type { InvestorConfig } from '@spark/config';
import { MailSealer } from '@spark/jobs';
import type { ServiceInfrastructure } from '@spark/service-runtime';
import { CampaignsRepository } from '../campaigns/campaigns.repository';
import { CampaignsService } from '../campaigns/campaigns.service';
import { MailJobOutcomes } from '../campaigns/mail-job-outcomes';
import { InvestorExporter, InvestorExportHandler } from './investor-export';
import { InvestorsHandler } from './investors.handler';
import { InvestorsRepository } from './investors.repository';
import { InvestorsService } from './investors.service';

@Module({})
export class InvestorsModule {
  static register({ config, dataSource, outbox, jobs }: ServiceInfrastructure, investorConfig: InvestorConfig): DynamicModule {
    const investors = new InvestorsRepository(dataSource);
    return {
      module: InvestorsModule,
      controllers: [InvestorsHandler, InvestorExportHandler],
      providers: [
        { provide: InvestorsService, useValue: new InvestorsService(investors) },
        { provide: InvestorExporter, useValue: new InvestorExporter(dataSource, investors, config.SIGNING_KEYS) },
        {
          provide: CampaignsService,
          useValue: new CampaignsService(
            new CampaignsRepository(dataSource),
            investors,
            new MailJobOutcomes(jobs),
            outbox,
            // A campaign's text, which may hold the recipient's access code, is sealed for the notifier.
            new MailSealer(investorConfig.MAIL_SEAL_PUBLIC_KEY),
          ),
        },
      ],
    };
  }
}
