import { Module } from '@nestjs/common';
import { ditlEnv, loadConfig } from '@spark/config';
import { DRAIN_SECONDS } from '@spark/runtime';
import { type ServiceDefinition, type ServiceInfrastructure } from '@spark/service-runtime';
import { ditlEraser } from './erasure/ditl-erasure';
import { GenerationsModule } from './generations/generations.module';
import { ditlMigrations } from './migrations';

@Module({})
class DitlModule {}

export const ditlService: ServiceDefinition = {
  name: 'ditl',
  migrations: ditlMigrations,
  // It runs a DITL worker too unless DITL_WORKER_ENABLED=false: a generation in flight finishes before it exits.
  drainSeconds: DRAIN_SECONDS.ditlWorker,
  // A method, so `this` is the definition startService was given, env included (tests pass their own).
  module(this: ServiceDefinition, infrastructure: ServiceInfrastructure) {
    const config = loadConfig(ditlEnv, this.env);
    return { module: DitlModule, imports: [GenerationsModule.register(infrastructure, config)] };
  },
  accountErasure(this: ServiceDefinition, { dataSource }: ServiceInfrastructure) {
    return { part: 'ditl', eraser: ditlEraser(dataSource, loadConfig(ditlEnv, this.env)) };
  },
};
