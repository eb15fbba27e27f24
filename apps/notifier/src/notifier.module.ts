import { BullModule } from '@nestjs/bullmq';
import { type DynamicModule, Module } from '@nestjs/common';
import { QUEUES } from '@spark/contracts';
import { bullPrefix } from '@spark/jobs';
import type { Redis } from 'ioredis';
import { MailProcessor, type MailProcessorDependencies } from './mail/mail.processor';

@Module({})
export class NotifierModule {
  static register(redis: Redis, busPrefix: string, deps: MailProcessorDependencies): DynamicModule {
    return {
      module: NotifierModule,
      imports: [
        BullModule.forRoot({ connection: redis, prefix: bullPrefix(busPrefix) }),
        BullModule.registerQueue({ name: QUEUES.mail }),
      ],
      providers: [{ provide: MailProcessor, useValue: new MailProcessor(deps) }],
    };
  }
}
