import { type DynamicModule, Module } from '@nestjs/common';
import type { ServiceInfrastructure } from '@spark/service-runtime';
import { RestDaysHandler } from '../rest-days/rest-days.handler';
import { RestDaysRepository } from '../rest-days/rest-days.repository';
import { RestDaysService } from '../rest-days/rest-days.service';
import { ProgressHandler } from './progress.handler';
import { ProgressRepository } from './progress.repository';

@Module({})
export class ProgressHomeModule {
  static register({ dataSource }: ServiceInfrastructure): DynamicModule {
    return {
      module: ProgressHomeModule,
      controllers: [ProgressHandler, RestDaysHandler],
      providers: [
        { provide: ProgressRepository, useValue: new ProgressRepository(dataSource) },
        { provide: RestDaysService, useValue: new RestDaysService(new RestDaysRepository(dataSource)) },
      ],
    };
  }
}
