import { type DynamicModule, Module, type OnModuleDestroy } from '@nestjs/common';
import type { ProgressConfig } from '@spark/config';
import type { ServiceInfrastructure } from '@spark/service-runtime';
import { ExportHandler, ExportRequests } from './export.handler';
import { startExportWorker } from './export-worker';

/** Stops the in-process export worker when the service stops; a running archive finishes first. */
class ExportWorkerResource implements OnModuleDestroy {
  constructor(private readonly close: () => Promise<void>) {}

  onModuleDestroy(): Promise<void> {
    return this.close();
  }
}

@Module({})
export class ExportModule {
  static register({ dataSource, outbox, logger }: ServiceInfrastructure, config: ProgressConfig): DynamicModule {
    const worker = config.EXPORT_WORKER_ENABLED ? startExportWorker({ config, dataSource, logger, kickOutbox: () => outbox.kick() }) : undefined;
    return {
      module: ExportModule,
      controllers: [ExportHandler],
      providers: [
        { provide: ExportRequests, useValue: new ExportRequests(dataSource, outbox) },
        { provide: ExportWorkerResource, useValue: new ExportWorkerResource(async () => worker?.close()) },
      ],
    };
  }
}
