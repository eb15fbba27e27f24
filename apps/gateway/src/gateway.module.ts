import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import type { GatewayConfig } from '@spark/config';
import type { Logger } from '@spark/logging';
import { ServiceBus } from '@spark/messaging';
import { Redis } from 'ioredis';
import { HealthController } from './health/health.controller';
import { AllExceptionsFilter } from './http/all-exceptions.filter';
import { LeadsController } from './leads/leads.controller';

export interface GatewayInfrastructure {
  config: GatewayConfig;
  logger: Logger;
  bus: ServiceBus;
  redis: Redis;
}

@Module({})
export class GatewayModule {
  static register({ logger, bus, redis }: GatewayInfrastructure): DynamicModule {
    return {
      module: GatewayModule,
      controllers: [HealthController, LeadsController],
      providers: [
        { provide: ServiceBus, useValue: bus },
        { provide: Redis, useValue: redis },
        { provide: APP_FILTER, useValue: new AllExceptionsFilter(logger) },
      ],
    };
  }
}
