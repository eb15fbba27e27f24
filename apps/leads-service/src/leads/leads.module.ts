import { type DynamicModule, Module, type OnModuleDestroy } from '@nestjs/common';
import { RedisStreamsClient, ServiceBus } from '@spark/messaging';
import type { ServiceInfrastructure } from '@spark/service-runtime';
import { CoachLeadsHandler } from './coach-leads.handler';
import { CoachLeadsRepository } from './coach-leads.repository';
import { CoachLeadsService } from './coach-leads.service';
import { LeadsHandler } from './leads.handler';
import { LeadsRepository } from './leads.repository';
import { LeadsService } from './leads.service';

/** Approving a lead asks the auth-service to invite its person, so this service is a bus client too. */
class OutgoingBus implements OnModuleDestroy {
  constructor(readonly client: RedisStreamsClient) {}

  async onModuleDestroy(): Promise<void> {
    await this.client.close();
  }
}

@Module({})
export class LeadsModule {
  static register({ dataSource, outbox, config, logger }: ServiceInfrastructure): DynamicModule {
    const outgoing = new OutgoingBus(
      new RedisStreamsClient({
        redisUrl: config.REDIS_URL,
        prefix: config.BUS_PREFIX,
        app: 'leads',
        timeoutMs: config.BUS_TIMEOUT_MS,
        logger,
        signingKeys: config.SIGNING_KEYS,
      }),
    );
    const bus = new ServiceBus(outgoing.client);
    const coachLeads = new CoachLeadsService(new CoachLeadsRepository(dataSource), {
      invite: (request) => bus.request('auth.invite', request),
      presetEvolution: (request) => bus.request('progress.preset-evolution', request),
    });
    return {
      module: LeadsModule,
      controllers: [LeadsHandler, CoachLeadsHandler],
      providers: [
        { provide: OutgoingBus, useValue: outgoing },
        { provide: LeadsService, useValue: new LeadsService(new LeadsRepository(dataSource), outbox) },
        { provide: CoachLeadsService, useValue: coachLeads },
      ],
    };
  }
}
