import { type DynamicModule, Module } from '@nestjs/common';
import type { ProgressConfig } from '@spark/config';
import { ClosedWithModule, type ServiceInfrastructure } from '@spark/service-runtime';
import { ObjectStorage } from '@spark/storage';
import { ExportHandler, ExportRequests } from './export.handler';
import { startExportSweep } from './export-sweep';
import { startExportWorker } from './export-worker';

@Module({})
export class ExportModule {
  static register({ dataSource, outbox, logger, bus }: ServiceInfrastructure, config: ProgressConfig): DynamicModule {
    const worker = config.EXPORT_WORKER_ENABLED ? startExportWorker({ config, dataSource, logger, bus, kickOutbox: () => outbox.kick() }) : undefined;
    // Signs the page's download links, and deletes archives past their keeping.
    const storage = new ObjectStorage(config);
    const sweep = startExportSweep({ config, dataSource, storage, logger });
    return {
      module: ExportModule,
      controllers: [ExportHandler],
      providers: [
        { provide: ExportRequests, useValue: new ExportRequests(dataSource, outbox, storage) },
        // The in-process export worker stops with the service; a running archive finishes first.
        {
          provide: ClosedWithModule,
          useValue: new ClosedWithModule(async () => {
            await worker?.close();
            await sweep.close();
            await storage.close();
          }),
        },
      ],
    };
  }
}
