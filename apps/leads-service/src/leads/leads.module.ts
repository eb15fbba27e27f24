import { type DynamicModule, Module } from '@nestjs/common';
import type { ServiceInfrastructure } from '@spark/runtime';
import { LeadsHandler } from './leads.handler';
import { LeadsRepository } from './leads.repository';
import { LeadsService } from './leads.service';

@Module({})
export class LeadsModule {
  static register({ dataSource, outbox }: ServiceInfrastructure): DynamicModule {
    return {
      module: LeadsModule,
      controllers: [LeadsHandler],
      providers: [{ provide: LeadsService, useValue: new LeadsService(new LeadsRepository(dataSource), outbox) }],
    };
  }
}
