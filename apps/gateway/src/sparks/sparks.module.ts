import { type DynamicModule, Inject, Injectable, Module, type OnModuleDestroy } from '@nestjs/common';
import type { GatewayConfig } from '@spark/config';
import { ServiceBus } from '@spark/messaging';
import { ObjectStorage } from '@spark/storage';
import { AUDIT_TRAIL } from '../audit/audit.interceptor';
import type { AuditTrail } from '../audit/audit-trail';
import { KeyedCommands } from '../http/keyed-commands';
import { RateLimiter } from '../http/rate-limiter';
import { CoachingController } from '../coach/coaching.controller';
import { ProgressController } from '../progress/progress.controller';
import { SignedSparks } from './signed-sparks';
import { SparksController } from './sparks.controller';

@Injectable()
class StorageShutdown implements OnModuleDestroy {
  constructor(@Inject(ObjectStorage) private readonly storage: ObjectStorage) {}

  onModuleDestroy(): Promise<void> {
    return this.storage.close();
  }
}

// The coach's drafts sign the week's sparks like the Activity list does, so they live beside it.
export const sparksControllers = [SparksController, ProgressController, CoachingController];

/** The client app's API: captures, sparks, the home, and the coach's notes and views of a client. */
@Module({})
export class SparksModule {
  static register({
    config,
    bus,
    auditTrail,
    limiter,
    keyedCommands,
  }: {
    config: GatewayConfig;
    bus: ServiceBus;
    auditTrail: AuditTrail;
    limiter: RateLimiter;
    keyedCommands: KeyedCommands;
  }): DynamicModule {
    const storage = new ObjectStorage(config);
    return {
      module: SparksModule,
      controllers: sparksControllers,
      providers: [
        StorageShutdown,
        { provide: ServiceBus, useValue: bus },
        { provide: AUDIT_TRAIL, useValue: auditTrail },
        { provide: RateLimiter, useValue: limiter },
        { provide: KeyedCommands, useValue: keyedCommands },
        { provide: ObjectStorage, useValue: storage },
        { provide: SignedSparks, useValue: new SignedSparks(storage) },
      ],
    };
  }
}
