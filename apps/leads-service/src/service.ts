import type { ServiceDefinition } from '@spark/service-runtime';
import { LeadsModule } from './leads/leads.module';
import { leadsMigrations } from './migrations';

export const leadsService: ServiceDefinition = {
  name: 'leads',
  entities: [],
  migrations: leadsMigrations,
  module: (infrastructure) => LeadsModule.register(infrastructure),
};
