import { BullModule, Processor } from '@nestjs/bullmq';
import { type DynamicModule, Module } from '@nestjs/common';
import { QUEUES } from '@spark/contracts';
import { bullPrefix, cappedBackoffStrategy, maxStalledCountOf, WORKER_METRICS } from '@spark/jobs';
import type { Redis } from 'ioredis';
import { MailProcessor, type MailProcessorDependencies } from './mail/mail.processor';

/**
 * `@Processor` takes the worker's options where the class is declared, before the configuration is read: a
 * subclass declared here carries the configured lock and retry delays.
 */
function configuredWorker({ lockMs, retry }: MailProcessorDependencies): typeof MailProcessor {
  class ConfiguredMailProcessor extends MailProcessor {}
  Processor(QUEUES.mail, {
    lockDuration: lockMs,
    stalledInterval: lockMs,
    maxStalledCount: maxStalledCountOf(QUEUES.mail),
    settings: { backoffStrategy: cappedBackoffStrategy(QUEUES.mail, retry) },
    metrics: WORKER_METRICS,
  })(ConfiguredMailProcessor);
  return ConfiguredMailProcessor;
}

@Module({})
export class NotifierModule {
  static register(redis: Redis, busPrefix: string, deps: MailProcessorDependencies): DynamicModule {
    return {
      module: NotifierModule,
      imports: [BullModule.forRoot({ connection: redis, prefix: bullPrefix(busPrefix) }), BullModule.registerQueue({ name: QUEUES.mail })],
      providers: [{ provide: MailProcessor, useValue: new (configuredWorker(deps))(deps) }],
    };
  }
}
