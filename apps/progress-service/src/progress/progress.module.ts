import { type DynamicModule, Module } from '@nestjs/common';
import type { ServiceInfrastructure } from '@spark/runtime';
import { ProgressHandler } from './progress.handler';
import { ProgressRepository } from './progress.repository';

@Module({})
export class ProgressHomeModule {
  static register({ dataSource }: ServiceInfrastructure): DynamicModule {
    return {
      module: ProgressHomeModule,
      controllers: [ProgressHandler],
      providers: [{ provide: ProgressRepository, useValue: new ProgressRepository(dataSource) }],
    };
  }
}
