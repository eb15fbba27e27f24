import { type DynamicModule, Module, type OnModuleDestroy } from '@nestjs/common';
import type { DitlConfig } from '@spark/config';
import type { ServiceInfrastructure } from '@spark/service-runtime';
import { ObjectStorage } from '@spark/storage';
import { startDitlWorker } from '../worker/ditl-worker';
import { GenerationsHandler } from './generations.handler';
import { GenerationsRepository } from './generations.repository';
import { GenerationsService } from './generations.service';

/** Closes what the module opened when the service stops: the in-process worker and the S3 client. */
class DitlResources implements OnModuleDestroy {
  constructor(private readonly closers: Array<() => Promise<void> | void>) {}

  async onModuleDestroy(): Promise<void> {
    for (const close of this.closers) await close();
  }
}

@Module({})
export class GenerationsModule {
  static register({ dataSource, outbox, logger }: ServiceInfrastructure, config: DitlConfig): DynamicModule {
    const storage = new ObjectStorage(config);
    const closers: Array<() => Promise<void> | void> = [];
    if (config.DITL_WORKER_ENABLED) {
      const worker = startDitlWorker({ config, dataSource, logger, kickOutbox: () => outbox.kick() });
      closers.push(() => worker.close());
    }
    closers.push(() => storage.close());
    return {
      module: GenerationsModule,
      controllers: [GenerationsHandler],
      providers: [
        {
          provide: GenerationsService,
          useValue: new GenerationsService(new GenerationsRepository(dataSource.manager), outbox, storage, config.DITL_DAILY_GENERATIONS, config.SIGNING_KEYS),
        },
        { provide: DitlResources, useValue: new DitlResources(closers) },
      ],
    };
  }
}
