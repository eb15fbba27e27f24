import { type DynamicModule, Module } from '@nestjs/common';
import type { ProgressConfig } from '@spark/config';
import { SparkMedia } from '@spark/media';
import { ClosedWithModule, type ServiceInfrastructure } from '@spark/service-runtime';
import { ObjectStorage } from '@spark/storage';
import type { TimeZoneResolver } from '../progress/database-time-zones';
import { SparksHandler } from './sparks.handler';
import { SparksRepository } from './sparks.repository';
import { SparksService } from './sparks.service';
import { startUploadSweep } from './upload-sweep';

@Module({})
export class SparksModule {
  static register({ dataSource, logger }: ServiceInfrastructure, options: { timeZones: TimeZoneResolver; config: ProgressConfig }): DynamicModule {
    const storage = new ObjectStorage(options.config, {
      onLaterDeleteFailed: (error, batch) =>
        logger.warn({ err: error, ...batch }, 'deleting released uploads failed; the sweep of unclaimed uploads deletes them'),
    });
    const media = new SparkMedia(storage);
    const sweep = startUploadSweep({ config: options.config, media, dataSource, logger });
    return {
      module: SparksModule,
      controllers: [SparksHandler],
      providers: [
        { provide: SparksService, useValue: new SparksService(new SparksRepository(dataSource), media, options.timeZones, options.config.STORAGE_QUOTA_BYTES) },
        {
          provide: ClosedWithModule,
          useValue: new ClosedWithModule(async () => {
            await sweep.close();
            await storage.close();
          }),
        },
      ],
    };
  }
}
