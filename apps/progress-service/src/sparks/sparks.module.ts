import { type DynamicModule, Module } from '@nestjs/common';
import type { ServiceInfrastructure } from '@spark/service-runtime';
import type { TimeZoneResolver } from '../progress/database-time-zones';
import { SparksHandler } from './sparks.handler';
import { SparksRepository } from './sparks.repository';
import { SparksService } from './sparks.service';

@Module({})
export class SparksModule {
  static register({ dataSource }: ServiceInfrastructure, options: { timeZones: TimeZoneResolver; storageQuotaBytes: number }): DynamicModule {
    return {
      module: SparksModule,
      controllers: [SparksHandler],
      providers: [{ provide: SparksService, useValue: new SparksService(new SparksRepository(dataSource), options.timeZones, options.storageQuotaBytes) }],
    };
  }
}
