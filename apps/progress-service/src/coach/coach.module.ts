import { type DynamicModule, Module } from '@nestjs/common';
import type { ServiceInfrastructure } from '@spark/service-runtime';
import { CoachClientsHandler } from './coach-clients.handler';
import { CoachClientsRepository } from './coach-clients.repository';
import { CoachClientsService } from './coach-clients.service';

@Module({})
export class CoachModule {
  static register({ dataSource }: ServiceInfrastructure): DynamicModule {
    return {
      module: CoachModule,
      controllers: [CoachClientsHandler],
      providers: [{ provide: CoachClientsService, useValue: new CoachClientsService(new CoachClientsRepository(dataSource)) }],
    };
  }
}
