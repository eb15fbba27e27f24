import { Module } from '@nestjs/common';
import type { ServiceDefinition } from '@spark/runtime';
import { progressMigrations } from './migrations';

/** Boots, migrates its schema and joins the bus; its message patterns are not built yet (see README status). */
@Module({})
class ProgressModule {}

export const progressService: ServiceDefinition = {
  name: 'progress',
  entities: [],
  migrations: progressMigrations,
  module: () => ({ module: ProgressModule }),
};
