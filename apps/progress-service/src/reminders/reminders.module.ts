import { type DynamicModule, Module } from '@nestjs/common';
import type { ProgressConfig } from '@spark/config';
import { ClosedWithModule, type ServiceInfrastructure } from '@spark/service-runtime';
import { startReminderTick } from './reminder-tick';
import { RemindersHandler } from './reminders.handler';
import { RemindersRepository } from './reminders.repository';
import { RemindersService } from './reminders.service';

@Module({})
export class RemindersModule {
  static register({ dataSource, outbox, logger }: ServiceInfrastructure, config: ProgressConfig): DynamicModule {
    const tick = startReminderTick({ config, dataSource, logger, kickOutbox: () => outbox.kick() });
    return {
      module: RemindersModule,
      controllers: [RemindersHandler],
      providers: [
        { provide: RemindersService, useValue: new RemindersService(new RemindersRepository(dataSource), config.PUSH_SERVICE_ORIGINS) },
        { provide: ClosedWithModule, useValue: new ClosedWithModule(() => tick.close()) },
      ],
    };
  }
}
