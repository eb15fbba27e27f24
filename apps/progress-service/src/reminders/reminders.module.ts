import { type DynamicModule, Module, type OnModuleDestroy } from '@nestjs/common';
import type { ProgressConfig } from '@spark/config';
import type { ServiceInfrastructure } from '@spark/service-runtime';
import { startReminderTick } from './reminder-tick';
import { RemindersHandler } from './reminders.handler';
import { RemindersRepository } from './reminders.repository';
import { RemindersService } from './reminders.service';

/** Stops the reminder tick's worker with the service. */
class ReminderTickResource implements OnModuleDestroy {
  constructor(private readonly close: () => Promise<void>) {}

  onModuleDestroy(): Promise<void> {
    return this.close();
  }
}

@Module({})
export class RemindersModule {
  static register({ dataSource, outbox, logger }: ServiceInfrastructure, config: ProgressConfig): DynamicModule {
    const tick = startReminderTick({ config, dataSource, logger, kickOutbox: () => outbox.kick() });
    return {
      module: RemindersModule,
      controllers: [RemindersHandler],
      providers: [
        { provide: RemindersService, useValue: new RemindersService(new RemindersRepository(dataSource), config.PUSH_SERVICE_ORIGINS) },
        { provide: ReminderTickResource, useValue: new ReminderTickResource(() => tick.close()) },
      ],
    };
  }
}
