import { type DynamicModule, Module } from '@nestjs/common';
import type { ServiceInfrastructure } from '@spark/service-runtime';
import { CoachLeadsHandler } from './coach-leads.handler';
import { CoachLeadsRepository } from './coach-leads.repository';
import { CoachLeadsService } from './coach-leads.service';
import { LeadExporter, LeadExportHandler } from './lead-export';
import { LeadsHandler } from './leads.handler';
import { LeadsRepository } from './leads.repository';
import { LeadsService } from './leads.service';

@Module({})
export class LeadsModule {
  static register({ config, dataSource, outbox, bus }: ServiceInfrastructure): DynamicModule {
    // Approving a lead asks the auth-service to invite its person and the progress service to preset an evolution.
    const coachLeads = new CoachLeadsService(new CoachLeadsRepository(dataSource), {
      invite: (request) => bus.request('auth.invite', request),
      presetEvolution: (request) => bus.request('progress.preset-evolution', request),
    });
    return {
      module: LeadsModule,
      controllers: [LeadsHandler, CoachLeadsHandler, LeadExportHandler],
      providers: [
        { provide: LeadsService, useValue: new LeadsService(new LeadsRepository(dataSource), outbox) },
        { provide: CoachLeadsService, useValue: coachLeads },
        { provide: LeadExporter, useValue: new LeadExporter(new LeadsRepository(dataSource), config.SIGNING_KEYS) },
      ],
    };
  }
}
